package dev.signinbackend.client;

import static dev.signinbackend.client.Harness.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;

/**
 * The app moved to another Apple developer team (contract v4; docs/android.md, "When the app moves
 * to another Apple developer team"): the session is kept, and the user it reports follows the
 * server's re-key of the Apple link. The Swift client's {@code AppTransferTests} is the same.
 */
class AppTransferTest {
    @Test
    void theSessionKeepsRefreshingAndItsUserFollowsTheReKeyedAppleId() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            User before = await(session.currentUser());
            assertEquals("001.a.1", before.appleUserId());

            h.server.appleId = "002.b.2";  // the operator's complete (or the user's other device) re-keyed the link
            User after = await(session.refresh());
            assertEquals(before.serviceUserID, after.serviceUserID);
            assertEquals("002.b.2", after.appleUserId());
            List<String> states = h.states(3);
            assertEquals("REFRESHED", states.get(2));
            synchronized (h.states) {
                assertEquals("002.b.2", h.states.get(2).user.appleUserId());
            }
            // A relaunch reads the new identifier from the store; nothing was signed out.
            assertEquals("002.b.2", await(h.session().currentUser()).appleUserId());
            assertTrue(h.transport.calls("signout").isEmpty());
        }
    }

    @Test
    void anAccountWithoutAppleHasNoAppleUserId() throws Exception {
        JSONObject json = new JSONObject().put("serviceUserID", Answers.USER_ID).put("providers",
                new JSONArray().put(new JSONObject().put("type", "google").put("id", "1234").put("isPrimary", true)));
        assertNull(User.read(new WireReader(json, "user", "signin")).appleUserId());
    }
}
