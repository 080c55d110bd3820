package dev.signinbackend.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The default transport over HttpURLConnection, against loopback servers that misbehave as networks do. */
class FunctionUrlTransportTest {
    private static FunctionUrlTransport to(String url) {
        return new FunctionUrlTransport(url, url, url, 2_000);
    }

    @Test
    void postsTheEventAndReturnsStatusAndBody() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String[] seen = new String[2];
        server.createContext("/", exchange -> {
            seen[0] = exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Content-Type");
            seen[1] = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            byte[] body = "{\"Message\":\"Too Many Requests\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(429, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            TransportAnswer answer = to("http://127.0.0.1:" + server.getAddress().getPort() + "/auth-refresh")
                    .send(SignInFunction.REFRESH, "refresh", "{\"a\":1}".getBytes(StandardCharsets.UTF_8), 5_000);
            assertEquals(429, answer.statusCode);
            assertEquals("POST application/json", seen[0]);
            assertEquals("{\"a\":1}", seen[1]);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aFourOhOneKeepsItsEnvelope() throws Exception {
        // SESSION_INVALID and REAUTHENTICATION_REQUIRED are both 401: only the body tells them apart.
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = Answers.error("REAUTHENTICATION_REQUIRED", 401).body;
            exchange.sendResponseHeaders(401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            TransportAnswer answer = to("http://127.0.0.1:" + server.getAddress().getPort() + "/auth-link")
                    .send(SignInFunction.LINK, "link", "{}".getBytes(StandardCharsets.UTF_8), 5_000);
            SignInException e = assertThrows(SignInException.class, () -> Envelope.open(answer, "link"));
            assertEquals(ErrorCode.REAUTHENTICATION_REQUIRED, e.code());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aRefusedConnectionIsOfflineNothingWasSent() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        SignInException e = assertThrows(SignInException.class,
                () -> to("http://127.0.0.1:" + port + "/x").send(SignInFunction.REFRESH, "refresh", new byte[0], 5_000));
        assertEquals(FailureKind.OFFLINE, e.kind());
        assertTrue(e.certainlyNotSent());
    }

    /** A server that reads the request, then does {@code then} with the socket. */
    private interface Behaviour {
        void after(Socket socket) throws Exception;
    }

    private static SignInException against(Behaviour behaviour, long timeoutMillis) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            CountDownLatch done = new CountDownLatch(1);
            Thread t = new Thread(() -> {
                try (Socket socket = server.accept()) {
                    socket.getInputStream().read(new byte[65536]);
                    behaviour.after(socket);
                    done.await(30, TimeUnit.SECONDS);
                } catch (Exception ignored) {
                    // the test's client has gone
                }
            });
            t.start();
            try {
                return assertThrows(SignInException.class, () -> to("http://127.0.0.1:" + server.getLocalPort() + "/x")
                        .send(SignInFunction.REFRESH, "refresh", "{}".getBytes(StandardCharsets.UTF_8), timeoutMillis));
            } finally {
                done.countDown();
                t.join(10_000);
            }
        }
    }

    @Test
    void silenceAfterTheRequestIsATimeoutAfterTheWholeWait() throws Exception {
        long started = System.nanoTime();
        SignInException e = against(socket -> { }, 1_500);
        assertEquals(FailureKind.TIMED_OUT, e.kind());
        assertTrue((System.nanoTime() - started) / 1_000_000 >= 1_400, "not abandoned before the timeout");
    }

    @Test
    void anAnswerCutOffIsAConnectionLost() throws Exception {
        SignInException e = against(socket -> {
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 4096\r\n\r\n{"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            socket.shutdownOutput();
        }, 5_000);
        assertEquals(FailureKind.CONNECTION_LOST, e.kind());
    }

    @Test
    void onlyHttpsOrLoopbackHttp() {
        assertThrows(IllegalArgumentException.class, () -> to("http://example.com/x"));
        to("https://abc.lambda-url.us-east-1.on.aws/");
    }
}
