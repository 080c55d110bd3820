package dev.signinbackend.example;

import dev.signinbackend.client.TemporaryCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One S3 PutObject signed with AWS Signature Version 4 and the session's temporary credentials,
 * path-style (what a local S3 such as moto, or any endpoint override, takes). An app would use
 * aws-sdk-kotlin with the adapter in docs/android/; this example shows the credentials at work
 * without an SDK.
 */
final class S3Put {
    private S3Put() {}

    /** The HTTP status and, for an error, S3's code (e.g. {@code ExpiredToken}). */
    static String[] put(String endpoint, String region, String bucket, String key, byte[] body,
            TemporaryCredentials credentials) throws IOException, GeneralSecurityException {
        URL url = new URL(endpoint.replaceAll("/$", "") + "/" + bucket + "/" + key);
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        String amzDate = now.format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'"));
        String day = amzDate.substring(0, 8);
        String payloadHash = hex(MessageDigest.getInstance("SHA-256").digest(body));
        String host = url.getPort() == -1 ? url.getHost() : url.getHost() + ":" + url.getPort();
        String signedHeaders = "content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token";
        String canonical = "PUT\n" + url.getPath() + "\n\n" + "content-type:image/jpeg\n" + "host:" + host + "\n"
                + "x-amz-content-sha256:" + payloadHash + "\n" + "x-amz-date:" + amzDate + "\n"
                + "x-amz-security-token:" + credentials.sessionToken + "\n\n" + signedHeaders + "\n" + payloadHash;
        String scope = day + "/" + region + "/s3/aws4_request";
        String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n"
                + hex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        byte[] k = hmac(("AWS4" + credentials.secretAccessKey).getBytes(StandardCharsets.UTF_8), day);
        k = hmac(hmac(hmac(k, region), "s3"), "aws4_request");
        String signature = hex(hmac(k, toSign));

        HttpURLConnection c = (HttpURLConnection) url.openConnection();
        c.setRequestMethod("PUT");
        c.setDoOutput(true);
        c.setFixedLengthStreamingMode(body.length);
        c.setRequestProperty("Content-Type", "image/jpeg");
        c.setRequestProperty("x-amz-content-sha256", payloadHash);
        c.setRequestProperty("x-amz-date", amzDate);
        c.setRequestProperty("x-amz-security-token", credentials.sessionToken);
        c.setRequestProperty("Authorization", "AWS4-HMAC-SHA256 Credential=" + credentials.accessKeyId + "/" + scope
                + ", SignedHeaders=" + signedHeaders + ", Signature=" + signature);
        try (OutputStream out = c.getOutputStream()) {
            out.write(body);
        }
        int status = c.getResponseCode();
        String code = "";
        if (status >= 300) {
            try (InputStream err = c.getErrorStream()) {
                String text = err == null ? "" : new String(err.readAllBytes(), StandardCharsets.UTF_8);
                int start = text.indexOf("<Code>");
                int end = text.indexOf("</Code>");
                code = start >= 0 && end > start ? text.substring(start + 6, end) : "";
            }
        }
        c.disconnect();
        return new String[] {Integer.toString(status), code};
    }

    private static byte[] hmac(byte[] key, String data) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02x", b));
        }
        return out.toString();
    }
}
