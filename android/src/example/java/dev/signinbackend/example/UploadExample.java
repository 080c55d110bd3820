package dev.signinbackend.example;

import dev.signinbackend.client.AuthState;
import dev.signinbackend.client.EncryptedFileSessionStore;
import dev.signinbackend.client.FunctionUrlTransport;
import dev.signinbackend.client.Provider;
import dev.signinbackend.client.SessionSummary;
import dev.signinbackend.client.SignInConfiguration;
import dev.signinbackend.client.SignInException;
import dev.signinbackend.client.SignInIntent;
import dev.signinbackend.client.SignInResult;
import dev.signinbackend.client.SignInSession;
import dev.signinbackend.client.SoftwareKeyProvider;
import dev.signinbackend.client.StorageLocation;
import dev.signinbackend.client.TemporaryCredentials;
import java.io.File;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The Android library from a JVM program, end to end against scripts/serve: sign in with an Apple
 * ID token, upload a photo to the user's own prefix with the STS credentials it got, refresh, list
 * the sessions, sign out.
 *
 * <pre>
 * scripts/serve     # prints the three URLs and the S3 endpoint
 * java -cp android/build-out/signin-client.jar:android/build-out/example-classes:/usr/share/java/com.android.json.jar \
 *   dev.signinbackend.example.UploadExample --signin URL --refresh URL --link URL --s3 S3_ENDPOINT \
 *   --token "$(scripts/mint-token apple 001234.example.0001)" --store /tmp/example/session
 * </pre>
 */
public final class UploadExample {
    private UploadExample() {}

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            args.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
        }
        ExecutorService io = Executors.newFixedThreadPool(4);
        File storeFile = new File(args.getOrDefault("store", "session"));
        SignInSession session = new SignInSession(SignInConfiguration.builder(
                new FunctionUrlTransport(args.get("signin"), args.get("refresh"), args.get("link")),
                new EncryptedFileSessionStore(storeFile, SoftwareKeyProvider.inFile(new File(storeFile.getPath() + ".key"))),
                io).device("JVM example · signin-client").build());
        session.addAuthStateListener(UploadExample::print);
        try {
            SignInResult signedIn = get(session.signIn(Provider.APPLE, args.get("token"), SignInIntent.AUTO, null, null));
            System.out.println("signed in as " + signedIn.user.serviceUserID + (signedIn.isNewUser ? " (new account)" : ""));
            StorageLocation storage = get(session.storage());
            TemporaryCredentials credentials = get(session.credentials());
            String key = storage.prefix + "photos/" + UUID.randomUUID() + ".jpg";
            byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, (byte) 0xFF,
                    (byte) 0xD9};
            String[] put = S3Put.put(args.get("s3"), storage.region, storage.bucket, key, jpeg, credentials);
            if (put[1].equals("ExpiredToken")) {  // S3 never retries it: renew once, retry once
                credentials = get(session.credentialsReplacing(credentials.accessKeyId));
                put = S3Put.put(args.get("s3"), storage.region, storage.bucket, key, jpeg, credentials);
            }
            if (!put[0].equals("200")) {
                throw new IllegalStateException("upload failed: HTTP " + put[0] + " " + put[1]);
            }
            System.out.println("uploaded s3://" + storage.bucket + "/" + key + ": " + jpeg.length + " bytes");
            get(session.refresh());
            System.out.println("refreshed");
            for (SessionSummary s : get(session.sessions())) {
                System.out.println("session " + s.sessionId + " " + s.provider + " device " + s.device + " current: " + s.current);
            }
            System.out.println("signed out (server confirmed: " + get(session.signOut()) + ")");
        } catch (SignInException e) {
            System.out.println("failed: " + e.getMessage() + " → " + e.recommendation());
            System.exit(1);
        } finally {
            io.shutdown();
        }
    }

    private static void print(AuthState state) {
        switch (state.kind) {
            case SIGNED_OUT: System.out.println("state: signed out (" + state.reason + ")"); break;
            case UNKNOWN: System.out.println("state: unknown (" + state.detail + ")"); break;
            default: System.out.println("state: " + state.kind.name().toLowerCase().replace('_', ' '));
        }
    }

    private static <T> T get(java.util.concurrent.CompletableFuture<T> future) throws Exception {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }
}
