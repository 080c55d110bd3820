package dev.signinbackend.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * SHA-256, hex, unpadded base64url and random bytes: what nonces, state values and the session
 * file need. Written here because {@code java.util.Base64} arrived on Android only with API 26.
 */
final class Bytes {
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final char[] BASE64URL =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private Bytes() {}

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this platform", e);
        }
    }

    /** Lowercase hex of the SHA-256 of {@code text}'s UTF-8 bytes (Apple's nonce convention). */
    static String sha256Hex(String text) {
        return hex(sha256(text.getBytes(StandardCharsets.UTF_8)));
    }

    static String hex(byte[] data) {
        char[] out = new char[data.length * 2];
        for (int i = 0; i < data.length; i++) {
            out[2 * i] = HEX[(data[i] >> 4) & 0xF];
            out[2 * i + 1] = HEX[data[i] & 0xF];
        }
        return new String(out);
    }

    /** Unpadded base64url (RFC 4648 §5). */
    static String base64Url(byte[] data) {
        StringBuilder out = new StringBuilder((data.length * 4 + 2) / 3);
        int i = 0;
        for (; i + 2 < data.length; i += 3) {
            int n = (data[i] & 0xFF) << 16 | (data[i + 1] & 0xFF) << 8 | (data[i + 2] & 0xFF);
            out.append(BASE64URL[n >> 18 & 63]).append(BASE64URL[n >> 12 & 63]).append(BASE64URL[n >> 6 & 63])
                    .append(BASE64URL[n & 63]);
        }
        int rest = data.length - i;
        if (rest == 1) {
            int n = (data[i] & 0xFF) << 16;
            out.append(BASE64URL[n >> 18 & 63]).append(BASE64URL[n >> 12 & 63]);
        } else if (rest == 2) {
            int n = (data[i] & 0xFF) << 16 | (data[i + 1] & 0xFF) << 8;
            out.append(BASE64URL[n >> 18 & 63]).append(BASE64URL[n >> 12 & 63]).append(BASE64URL[n >> 6 & 63]);
        }
        return out.toString();
    }

    /** {@code count} bytes from the platform's CSPRNG. */
    static byte[] random(int count) {
        byte[] out = new byte[count];
        RANDOM.nextBytes(out);
        return out;
    }

    /** Compares in time independent of where the inputs differ (state values, nonces). */
    static boolean constantTimeEquals(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
