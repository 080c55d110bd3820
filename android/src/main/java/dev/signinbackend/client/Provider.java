package dev.signinbackend.client;

/** The identity providers of the contract. */
public enum Provider {
    APPLE("apple"),
    GOOGLE("google"),
    /** Opted in by the deployment, for apps moving from Firebase Auth. */
    FIREBASE("firebase");

    private final String wireName;

    Provider(String wireName) {
        this.wireName = wireName;
    }

    /** As the contract spells it. */
    public String wireName() {
        return wireName;
    }

    static Provider fromWire(String name) {
        for (Provider p : values()) {
            if (p.wireName.equals(name)) {
                return p;
            }
        }
        return null;
    }
}
