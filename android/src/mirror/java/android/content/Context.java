// TEST-ONLY MIRROR, never shipped (android/build compiles it into build-out/mirror, outside the
// library's jar). Exactly the declarations of android.content.Context that
// dev.signinbackend.client.android uses, copied from AOSP frameworks/base,
// core/java/android/content/Context.java (public abstract class Context; getNoBackupFilesDir,
// API 21). The bodies are not AOSP's. See docs/android.md, "What this repository proves".
package android.content;

import java.io.File;

public abstract class Context {
    public abstract File getNoBackupFilesDir();
}
