// TEST-ONLY MIRROR, never shipped. Exactly the declarations of
// android.security.keystore.KeyProperties that AndroidKeystoreKeyProvider uses, copied from AOSP
// frameworks/base, keystore/java/android/security/keystore/KeyProperties.java (API 23).
package android.security.keystore;

public abstract class KeyProperties {
    private KeyProperties() {}

    public static final int PURPOSE_ENCRYPT = 1 << 0;

    public static final int PURPOSE_DECRYPT = 1 << 1;

    public static final String KEY_ALGORITHM_AES = "AES";

    public static final String BLOCK_MODE_GCM = "GCM";

    public static final String ENCRYPTION_PADDING_NONE = "NoPadding";
}
