package dev.signinbackend.client.android;

import android.security.keystore.KeyGenParameterSpec;
import android.security.keystore.KeyProperties;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.InvalidAlgorithmParameterException;
import java.security.Key;
import java.security.KeyStoreSpi;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.crypto.KeyGeneratorSpi;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * A JCA provider named "AndroidKeyStore" that behaves as Android's documentation says for what the
 * library uses: the KeyStore must be loaded with a null parameter before use; getKey answers null
 * for an unknown alias; a KeyGenerator("AES") takes only a KeyGenParameterSpec and refuses one
 * without a purpose, block mode or padding it can honour; generateKey stores the key under the
 * spec's alias. Unlike the real one, its keys are exportable (so the JDK's own AES/GCM can use them
 * in the tests); the real keystore's keys never leave it.
 */
final class FakeAndroidKeyStore extends Provider {
    private static final long serialVersionUID = 1L;
    static final Map<String, SecretKey> KEYS = new ConcurrentHashMap<>();
    static final List<KeyGenParameterSpec> SPECS = new CopyOnWriteArrayList<>();

    FakeAndroidKeyStore() {
        super("AndroidKeyStore", "1.0", "a fake of Android's keystore provider for JVM tests");
        put("KeyStore.AndroidKeyStore", FakeKeyStore.class.getName());
        put("KeyGenerator.AES", FakeAesGenerator.class.getName());
    }

    public static final class FakeKeyStore extends KeyStoreSpi {
        private boolean loaded;

        @Override
        public void engineLoad(InputStream stream, char[] password) {
            if (stream != null) {
                throw new IllegalArgumentException("AndroidKeyStore is loaded with null");
            }
            loaded = true;
        }

        @Override
        public Key engineGetKey(String alias, char[] password) {
            if (!loaded) {
                throw new IllegalStateException("KeyStore not initialized");
            }
            return KEYS.get(alias);
        }

        @Override
        public boolean engineContainsAlias(String alias) {
            return KEYS.containsKey(alias);
        }

        @Override
        public Enumeration<String> engineAliases() {
            return Collections.enumeration(KEYS.keySet());
        }

        @Override
        public int engineSize() {
            return KEYS.size();
        }

        @Override
        public void engineDeleteEntry(String alias) {
            KEYS.remove(alias);
        }

        @Override
        public boolean engineIsKeyEntry(String alias) {
            return KEYS.containsKey(alias);
        }

        @Override
        public Certificate[] engineGetCertificateChain(String alias) {
            return null;
        }

        @Override
        public Certificate engineGetCertificate(String alias) {
            return null;
        }

        @Override
        public Date engineGetCreationDate(String alias) {
            return null;
        }

        @Override
        public void engineSetKeyEntry(String alias, Key key, char[] password, Certificate[] chain) {
            throw new UnsupportedOperationException("keys are imported with KeyProtection on Android");
        }

        @Override
        public void engineSetKeyEntry(String alias, byte[] key, Certificate[] chain) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void engineSetCertificateEntry(String alias, Certificate cert) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean engineIsCertificateEntry(String alias) {
            return false;
        }

        @Override
        public String engineGetCertificateAlias(Certificate cert) {
            return null;
        }

        @Override
        public void engineStore(OutputStream stream, char[] password) {
            throw new UnsupportedOperationException();
        }
    }

    public static final class FakeAesGenerator extends KeyGeneratorSpi {
        private KeyGenParameterSpec spec;

        @Override
        protected void engineInit(SecureRandom random) {
            throw new IllegalStateException("AndroidKeyStore needs a KeyGenParameterSpec");
        }

        @Override
        protected void engineInit(AlgorithmParameterSpec params, SecureRandom random)
                throws InvalidAlgorithmParameterException {
            if (!(params instanceof KeyGenParameterSpec)) {
                throw new InvalidAlgorithmParameterException("only KeyGenParameterSpec");
            }
            KeyGenParameterSpec s = (KeyGenParameterSpec) params;
            int size = s.getKeySize() == -1 ? 128 : s.getKeySize();
            if (size != 128 && size != 192 && size != 256) {
                throw new InvalidAlgorithmParameterException("AES key size");
            }
            if (s.getPurposes() == 0 || s.getBlockModes().length == 0) {
                throw new InvalidAlgorithmParameterException("purposes and block modes are required");
            }
            spec = s;
        }

        @Override
        protected void engineInit(int keysize, SecureRandom random) {
            throw new IllegalStateException("AndroidKeyStore needs a KeyGenParameterSpec");
        }

        @Override
        protected SecretKey engineGenerateKey() {
            byte[] bytes = new byte[(spec.getKeySize() == -1 ? 128 : spec.getKeySize()) / 8];
            new SecureRandom().nextBytes(bytes);
            SecretKey key = new SecretKeySpec(bytes, KeyProperties.KEY_ALGORITHM_AES);
            KEYS.put(spec.getKeystoreAlias(), key);
            SPECS.add(spec);
            return key;
        }
    }

    static boolean gcmOnly(KeyGenParameterSpec s) {
        return Arrays.equals(s.getBlockModes(), new String[] {KeyProperties.BLOCK_MODE_GCM})
                && Arrays.equals(s.getEncryptionPaddings(), new String[] {KeyProperties.ENCRYPTION_PADDING_NONE});
    }
}
