package dev.signinbackend.client;

import static dev.signinbackend.client.Harness.await;
import static dev.signinbackend.client.Harness.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SESSION_INVALID from an action other than refresh is confirmed by one refresh before the session
 * ends (contract v5: the server answers a just-rotated token whose successor was never presented so,
 * and the client may simply have been behind); on success the action is retried once.
 */
class SessionInvalidConfirmationTest {
    @Test
    void aBehindProcessRefreshesOnceAndRetriesTheAction() throws Exception {
        try (Harness h = new Harness()) {
            h.signedIn();
            String token = h.storedToken();
            // A copy of the store that missed a rotation: another copy rotated the token, its
            // successor never presented.
            SignInSession behind = h.session(SignInConfiguration.builder(h.transport,
                    new InMemorySessionStore(h.store.load()), h.executor).clock(h.clock));
            await(h.session().refresh());
            assertEquals(1, await(behind.sessions()).size());
            List<ScriptedTransport.Call> lists = h.transport.calls("list");
            assertEquals(token, lists.get(0).token(), "first with the token it held");
            assertEquals(token, h.transport.calls("refresh").get(1).token(), "one refresh confirms");
            assertEquals(h.server.current(), lists.get(1).token(), "then the action once more, with the new one");
            assertEquals(2, lists.size());
            assertFalse(h.server.reuseDetected);
        }
    }

    @Test
    void aSessionTheRefreshRefusesTooEnds() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            h.server.revoke();  // signed out elsewhere
            SignInException e = failure(session.sessions());
            assertEquals(ErrorCode.SESSION_INVALID, e.code());
            assertEquals(1, h.transport.calls("refresh").size(), "confirmed by one refresh");
            assertEquals(1, h.transport.calls("list").size(), "not retried: the refresh was refused too");
            assertEquals(null, h.storedToken());
            assertTrue(h.states(3).contains("SIGNED_OUT(SESSION_ENDED)"), h.states(3).toString());
        }
    }

    @Test
    void aReadOnlyProcessKeepsItsV4Rule() throws Exception {
        try (Harness h = new Harness()) {
            h.signedIn();
            SignInSession widget = h.session(SignInConfiguration.builder(h.transport, h.store, h.executor).clock(h.clock)
                    .refreshPolicy(RefreshPolicy.READ_ONLY));
            h.server.revoke();
            assertEquals(ErrorCode.SESSION_INVALID, failure(widget.sessions()).code());
            assertEquals(0, h.transport.calls("refresh").size(), "a read-only process never refreshes");
            assertEquals(null, h.storedToken());
        }
    }
}
