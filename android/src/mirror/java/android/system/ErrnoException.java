// TEST-ONLY MIRROR, never shipped. The declaration of android.system.ErrnoException, copied from
// AOSP libcore, luni/src/main/java/android/system/ErrnoException.java (API 21): a checked exception.
package android.system;

public final class ErrnoException extends Exception {
    private static final long serialVersionUID = 1L;

    public ErrnoException(String functionName, int errno) {
        super(functionName + " failed: errno " + errno);
    }
}
