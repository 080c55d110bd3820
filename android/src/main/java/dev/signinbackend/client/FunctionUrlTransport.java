package dev.signinbackend.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.MalformedURLException;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.util.EnumMap;
import java.util.Map;

/**
 * The default transport: an HTTPS POST of the event to each function's Function URL, over
 * {@link HttpURLConnection} (what Android ships; no third-party HTTP client).
 *
 * <p>Connecting is bounded by {@link #connectTimeoutMillis}: a connection that never opens
 * carried nothing, so it is {@link FailureKind#OFFLINE} and safe to retry at any time. Once the
 * request is written the answer is awaited for the full {@code timeoutMillis} the session passes
 * (the function's timeout plus a margin), never less. No cache, no redirects, no cookies.
 */
public final class FunctionUrlTransport implements SignInTransport {
    /** Answers larger than this are not the contract's (a session list of the largest account is far smaller). */
    static final int MAX_ANSWER_BYTES = 1 << 20;

    private final Map<SignInFunction, URL> urls = new EnumMap<>(SignInFunction.class);
    private final int connectTimeoutMillis;

    /** The three Function URLs (the stack's outputs {@code AuthSigninUrl}, {@code AuthRefreshUrl}, {@code AuthLinkUrl}). */
    public FunctionUrlTransport(String signInUrl, String refreshUrl, String linkUrl) {
        this(signInUrl, refreshUrl, linkUrl, 10_000);
    }

    public FunctionUrlTransport(String signInUrl, String refreshUrl, String linkUrl, int connectTimeoutMillis) {
        urls.put(SignInFunction.SIGN_IN, url(signInUrl));
        urls.put(SignInFunction.REFRESH, url(refreshUrl));
        urls.put(SignInFunction.LINK, url(linkUrl));
        this.connectTimeoutMillis = connectTimeoutMillis;
    }

    private static URL url(String text) {
        try {
            URL url = new URL(text);
            String protocol = url.getProtocol();
            boolean loopback = "127.0.0.1".equals(url.getHost()) || "localhost".equals(url.getHost())
                    || "10.0.2.2".equals(url.getHost());
            if (!"https".equals(protocol) && !("http".equals(protocol) && loopback)) {
                throw new IllegalArgumentException("a Function URL must be https (http only to a loopback host)");
            }
            return url;
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("not a URL", e);
        }
    }

    @Override
    public TransportAnswer send(SignInFunction function, String action, byte[] event, long timeoutMillis)
            throws SignInException {
        HttpURLConnection connection;
        try {
            connection = (HttpURLConnection) urls.get(function).openConnection();
            connection.setRequestMethod("POST");
            connection.setDoOutput(true);
            connection.setUseCaches(false);
            connection.setInstanceFollowRedirects(false);
            connection.setConnectTimeout(connectTimeoutMillis);
            connection.setReadTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis));
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setRequestProperty("Accept", "application/json");
            // Not in streaming mode: the JDK's HttpURLConnection answers a streamed POST's 401 with an
            // HttpRetryException and drops the body, and SESSION_INVALID and REAUTHENTICATION_REQUIRED
            // are both 401. A stack that replays the buffered POST on a stale pooled connection
            // presents the same token within a second: the server's grace accepts it.
            connection.connect();
        } catch (IOException e) {
            throw SignInException.of(FailureKind.OFFLINE, action, e.getClass().getSimpleName());
        }
        try {
            try (OutputStream out = connection.getOutputStream()) {
                out.write(event);
            }
            int status = connection.getResponseCode();
            InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            byte[] body = in == null ? new byte[0] : readAll(in, action);
            long expected = connection.getContentLengthLong();
            if (expected >= 0 && body.length < expected) {
                // Some stacks end a cut-off body quietly: the answer was lost all the same.
                throw SignInException.of(FailureKind.CONNECTION_LOST, action, "answer cut off");
            }
            return new TransportAnswer(status, body);
        } catch (SocketTimeoutException e) {
            throw SignInException.of(FailureKind.TIMED_OUT, action, "no answer within " + timeoutMillis + " ms");
        } catch (IOException e) {
            throw SignInException.of(FailureKind.CONNECTION_LOST, action, e.getClass().getSimpleName());
        } finally {
            connection.disconnect();
        }
    }

    private static byte[] readAll(InputStream in, String action) throws IOException, SignInException {
        try (InputStream stream = in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = stream.read(buffer)) != -1) {
                out.write(buffer, 0, n);
                if (out.size() > MAX_ANSWER_BYTES) {
                    throw SignInException.malformed(action, "", "is larger than " + MAX_ANSWER_BYTES + " bytes");
                }
            }
            return out.toByteArray();
        }
    }
}
