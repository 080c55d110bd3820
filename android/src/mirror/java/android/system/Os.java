// TEST-ONLY MIRROR, never shipped. Exactly the declarations of android.system.Os that the library
// uses, copied from AOSP libcore, luni/src/main/java/android/system/Os.java (API 21): open, fsync,
// close. The bodies are not AOSP's (they throw: nothing on a JVM calls them; FileSteps calls them
// only when it runs on Android).
package android.system;

import java.io.FileDescriptor;

public final class Os {
    private Os() {}

    public static FileDescriptor open(String path, int flags, int mode) throws ErrnoException {
        throw new UnsupportedOperationException("android.system.Os exists only on Android");
    }

    public static void fsync(FileDescriptor fd) throws ErrnoException {
        throw new UnsupportedOperationException("android.system.Os exists only on Android");
    }

    public static void close(FileDescriptor fd) throws ErrnoException {
        throw new UnsupportedOperationException("android.system.Os exists only on Android");
    }
}
