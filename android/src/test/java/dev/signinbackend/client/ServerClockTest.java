package dev.signinbackend.client;

import static dev.signinbackend.client.Harness.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The server's clock, as the Swift client keeps it (ServerClockTests.swift): expiry, the minimum interval, the device's terms. */
class ServerClockTest {
    @Test
    void justReceivedCredentialsAreNeverRefreshedAgainWhateverTheyLookLike() throws Exception {
        try (Harness h = new Harness()) {
            h.server.credentialsMillis = -60_000;  // already expired: no clock makes them look newer
            SignInSession session = h.signedIn();
            for (int i = 0; i < 3; i++) {
                await(session.credentials());
                h.clock.advance(3_000);
            }
            assertEquals(0, h.transport.calls("refresh").size(), "received under 10 s ago: not again, not once per call");
            h.clock.advance(2_000);
            await(session.credentials());
            await(session.credentials());
            assertEquals(1, h.transport.calls("refresh").size(), "one rotation per minimum interval");
        }
    }

    @Test
    void theServersTimesAreGivenInTheDevicesTerms() throws Exception {
        for (long skew : new long[] {-5 * 3_600_000L, 5 * 3_600_000L}) {
            try (Harness h = new Harness()) {
                h.server.skewMillis = skew;  // the device's clock is hours off
                SignInSession session = h.signedIn();
                TemporaryCredentials c = await(session.credentials());
                long left = session.deviceTimeMillis(c.expirationMillis) - h.clock.wallMillis();
                assertEquals(FakeServer.CREDENTIALS_MILLIS, left, "an hour away by the device's clock too");
                assertTrue(Math.abs(c.expirationMillis - h.clock.wallMillis() - FakeServer.CREDENTIALS_MILLIS) > 3_600_000L,
                        "the credentials keep the server's time");
            }
        }
    }
}
