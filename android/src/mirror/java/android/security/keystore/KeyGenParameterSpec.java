// TEST-ONLY MIRROR, never shipped. Exactly the declarations of
// android.security.keystore.KeyGenParameterSpec (and its Builder) that AndroidKeystoreKeyProvider
// uses and the tests' fake keystore reads, copied from AOSP frameworks/base,
// keystore/java/android/security/keystore/KeyGenParameterSpec.java (API 23; the SDK's public view:
// the class implements AlgorithmParameterSpec, its UserAuthArgs interface is hidden). The bodies
// only keep the values (AOSP's also validate and clone); the defaults are AOSP's
// (randomized encryption required, no user authentication, key size unset = -1).
package android.security.keystore;

import java.security.spec.AlgorithmParameterSpec;

public final class KeyGenParameterSpec implements AlgorithmParameterSpec {
    private final String mKeystoreAlias;
    private final int mPurposes;
    private final int mKeySize;
    private final String[] mBlockModes;
    private final String[] mEncryptionPaddings;
    private final boolean mRandomizedEncryptionRequired;
    private final boolean mUserAuthenticationRequired;

    private KeyGenParameterSpec(Builder b) {
        mKeystoreAlias = b.mKeystoreAlias;
        mPurposes = b.mPurposes;
        mKeySize = b.mKeySize;
        mBlockModes = b.mBlockModes;
        mEncryptionPaddings = b.mEncryptionPaddings;
        mRandomizedEncryptionRequired = b.mRandomizedEncryptionRequired;
        mUserAuthenticationRequired = b.mUserAuthenticationRequired;
    }

    public String getKeystoreAlias() {
        return mKeystoreAlias;
    }

    public int getKeySize() {
        return mKeySize;
    }

    public int getPurposes() {
        return mPurposes;
    }

    public String[] getEncryptionPaddings() {
        return mEncryptionPaddings.clone();
    }

    public String[] getBlockModes() {
        return mBlockModes.clone();
    }

    public boolean isRandomizedEncryptionRequired() {
        return mRandomizedEncryptionRequired;
    }

    public boolean isUserAuthenticationRequired() {
        return mUserAuthenticationRequired;
    }

    public final static class Builder {
        private final String mKeystoreAlias;
        private int mPurposes;
        private int mKeySize = -1;
        private String[] mBlockModes = new String[0];
        private String[] mEncryptionPaddings = new String[0];
        private boolean mRandomizedEncryptionRequired = true;
        private boolean mUserAuthenticationRequired;

        public Builder(String keystoreAlias, int purposes) {
            if (keystoreAlias == null) {
                throw new NullPointerException("keystoreAlias == null");
            } else if (keystoreAlias.isEmpty()) {
                throw new IllegalArgumentException("keystoreAlias must not be empty");
            }
            mKeystoreAlias = keystoreAlias;
            mPurposes = purposes;
        }

        public Builder setKeySize(int keySize) {
            if (keySize < 0) {
                throw new IllegalArgumentException("keySize < 0");
            }
            mKeySize = keySize;
            return this;
        }

        public Builder setEncryptionPaddings(String... paddings) {
            mEncryptionPaddings = paddings.clone();
            return this;
        }

        public Builder setBlockModes(String... blockModes) {
            mBlockModes = blockModes.clone();
            return this;
        }

        public Builder setRandomizedEncryptionRequired(boolean required) {
            mRandomizedEncryptionRequired = required;
            return this;
        }

        public Builder setUserAuthenticationRequired(boolean required) {
            mUserAuthenticationRequired = required;
            return this;
        }

        public KeyGenParameterSpec build() {
            return new KeyGenParameterSpec(this);
        }
    }
}
