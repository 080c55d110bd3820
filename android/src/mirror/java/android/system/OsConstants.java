// TEST-ONLY MIRROR, never shipped. The declaration of android.system.OsConstants.O_RDONLY, copied
// from AOSP libcore, luni/src/main/java/android/system/OsConstants.java (API 21). As in AOSP it is
// not a compile-time constant (initialized at class load from the C library), so the library's
// class files read the field instead of inlining a value.
package android.system;

public final class OsConstants {
    private OsConstants() {}

    public static final int O_RDONLY = placeholder();

    private static int placeholder() {
        return 0;
    }
}
