package dev.signinbackend.client;

import java.util.ArrayList;
import java.util.List;
import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;
import org.json.JSONTokener;

/**
 * Reads one JSON object of an answer field by field. Every failure is a
 * {@link FailureKind#MALFORMED_ANSWER} naming the action and the field's path
 * ({@code data.credentials.expiration}, {@code data.sessions[2].current}), never a bare "invalid
 * response". Unknown fields are ignored (the contract only ever adds fields); every field the
 * contract always sends is required.
 */
final class WireReader {
    private final JSONObject object;
    private final String path;
    private final String action;

    WireReader(JSONObject object, String path, String action) {
        this.object = object;
        this.path = path;
        this.action = action;
    }

    /** The JSON object {@code text} holds, or a malformed-answer failure. */
    static JSONObject parseObject(String text, String action) throws SignInException {
        Object value;
        try {
            value = new JSONTokener(text).nextValue();
        } catch (JSONException e) {
            throw SignInException.malformed(action, "", "is not JSON");
        }
        if (!(value instanceof JSONObject)) {
            throw SignInException.malformed(action, "", "is not a JSON object");
        }
        return (JSONObject) value;
    }

    String path(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    JSONObject raw() {
        return object;
    }

    String action() {
        return action;
    }

    private Object value(String name) {
        Object value = object.opt(name);
        return value == JSONObject.NULL ? null : value;
    }

    private SignInException wrong(String name, String detail) {
        return SignInException.malformed(action, path(name), detail);
    }

    String string(String name) throws SignInException {
        String s = optionalString(name);
        if (s == null) {
            throw wrong(name, "missing");
        }
        return s;
    }

    String optionalString(String name) throws SignInException {
        Object value = value(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String)) {
            throw wrong(name, "is not a string");
        }
        return (String) value;
    }

    boolean bool(String name) throws SignInException {
        Boolean b = optionalBool(name);
        if (b == null) {
            throw wrong(name, "missing");
        }
        return b;
    }

    Boolean optionalBool(String name) throws SignInException {
        Object value = value(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Boolean)) {
            throw wrong(name, "is not a boolean");
        }
        return (Boolean) value;
    }

    long integer(String name) throws SignInException {
        Long n = optionalInteger(name);
        if (n == null) {
            throw wrong(name, "missing");
        }
        return n;
    }

    Long optionalInteger(String name) throws SignInException {
        Object value = value(name);
        if (value == null) {
            return null;
        }
        if (value instanceof Integer || value instanceof Long) {
            return ((Number) value).longValue();
        }
        if (value instanceof Number) {
            double d = ((Number) value).doubleValue();
            if (d == Math.rint(d) && Math.abs(d) < 9.0e15) {
                return (long) d;
            }
        }
        throw wrong(name, "is not an integer");
    }

    /** An ISO-8601 timestamp as epoch milliseconds. */
    long timestamp(String name) throws SignInException {
        long t = optionalTimestamp(name);
        if (t == -1) {
            throw wrong(name, "missing");
        }
        return t;
    }

    /** An ISO-8601 timestamp as epoch milliseconds, or -1 when absent. */
    long optionalTimestamp(String name) throws SignInException {
        String text = optionalString(name);
        if (text == null) {
            return -1;
        }
        long t = Timestamps.parse(text);
        if (t == -1) {
            throw wrong(name, "is not an ISO-8601 UTC timestamp");
        }
        return t;
    }

    WireReader object(String name) throws SignInException {
        WireReader r = optionalObject(name);
        if (r == null) {
            throw wrong(name, "missing");
        }
        return r;
    }

    WireReader optionalObject(String name) throws SignInException {
        Object value = value(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof JSONObject)) {
            throw wrong(name, "is not an object");
        }
        return new WireReader((JSONObject) value, path(name), action);
    }

    /** An array of objects (absent: empty). */
    List<WireReader> objects(String name) throws SignInException {
        Object value = value(name);
        List<WireReader> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        if (!(value instanceof JSONArray)) {
            throw wrong(name, "is not an array");
        }
        JSONArray array = (JSONArray) value;
        for (int i = 0; i < array.length(); i++) {
            Object item = array.opt(i);
            String itemPath = path(name) + "[" + i + "]";
            if (!(item instanceof JSONObject)) {
                throw SignInException.malformed(action, itemPath, "is not an object");
            }
            out.add(new WireReader((JSONObject) item, itemPath, action));
        }
        return out;
    }
}
