package dev.signinbackend.client;

import org.json.JSONException;
import org.json.JSONObject;

/** Where the user's files go: {@code prefix} is {@code users/<uuid>/}, the only place the credentials reach. */
public final class StorageLocation {
    public final String bucket;
    public final String region;
    public final String prefix;

    public StorageLocation(String bucket, String region, String prefix) {
        this.bucket = bucket;
        this.region = region;
        this.prefix = prefix;
    }

    static StorageLocation read(WireReader r) throws SignInException {
        return new StorageLocation(r.string("bucket"), r.string("region"), r.string("prefix"));
    }

    JSONObject toJson() throws JSONException {
        return new JSONObject().put("bucket", bucket).put("region", region).put("prefix", prefix);
    }

    @Override
    public String toString() {
        return "s3://" + bucket + "/" + prefix + " (" + region + ")";
    }
}
