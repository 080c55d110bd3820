package dev.signinbackend.client;

/** What came back: the HTTP status (-1 for a direct Lambda invoke, which has none) and the body. */
public final class TransportAnswer {
    public final int statusCode;
    public final byte[] body;

    public TransportAnswer(int statusCode, byte[] body) {
        this.statusCode = statusCode;
        this.body = body;
    }
}
