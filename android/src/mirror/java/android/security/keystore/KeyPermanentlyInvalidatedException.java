// TEST-ONLY MIRROR, never shipped. The declaration of
// android.security.keystore.KeyPermanentlyInvalidatedException, copied from AOSP frameworks/base,
// keystore/java/android/security/keystore/KeyPermanentlyInvalidatedException.java (API 23): an
// InvalidKeyException thrown when a key can no longer be used (e.g. its secure lock screen was
// disabled or its biometrics changed). The bodies are not AOSP's.
package android.security.keystore;

import java.security.InvalidKeyException;

public class KeyPermanentlyInvalidatedException extends InvalidKeyException {
    private static final long serialVersionUID = 1L;

    public KeyPermanentlyInvalidatedException() {
        super("Key permanently invalidated");
    }

    public KeyPermanentlyInvalidatedException(String message) {
        super(message);
    }
}
