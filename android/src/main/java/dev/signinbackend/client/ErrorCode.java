package dev.signinbackend.client;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The contract's stable {@code error.code} values. A class, not an enum: a newer deployment may
 * add a code, and an older app must still carry it ({@link #of(String)} keeps any value; its
 * recommendation is then "retry later").
 */
public final class ErrorCode {
    public static final ErrorCode INVALID_REQUEST = new ErrorCode("INVALID_REQUEST");
    public static final ErrorCode UNSUPPORTED_PROVIDER = new ErrorCode("UNSUPPORTED_PROVIDER");
    public static final ErrorCode INVALID_TOKEN = new ErrorCode("INVALID_TOKEN");
    public static final ErrorCode TOKEN_EXPIRED = new ErrorCode("TOKEN_EXPIRED");
    public static final ErrorCode ACCOUNT_NOT_FOUND = new ErrorCode("ACCOUNT_NOT_FOUND");
    public static final ErrorCode ACCOUNT_ALREADY_EXISTS = new ErrorCode("ACCOUNT_ALREADY_EXISTS");
    public static final ErrorCode PROVIDER_ALREADY_LINKED = new ErrorCode("PROVIDER_ALREADY_LINKED");
    public static final ErrorCode PROVIDER_NOT_LINKED = new ErrorCode("PROVIDER_NOT_LINKED");
    public static final ErrorCode LAST_PROVIDER = new ErrorCode("LAST_PROVIDER");
    public static final ErrorCode SESSION_INVALID = new ErrorCode("SESSION_INVALID");
    public static final ErrorCode REAUTHENTICATION_REQUIRED = new ErrorCode("REAUTHENTICATION_REQUIRED");
    public static final ErrorCode CONFLICT = new ErrorCode("CONFLICT");
    public static final ErrorCode PURCHASE_BELONGS_TO_OTHER_ACCOUNT = new ErrorCode("PURCHASE_BELONGS_TO_OTHER_ACCOUNT");
    public static final ErrorCode INVALID_PURCHASE = new ErrorCode("INVALID_PURCHASE");
    public static final ErrorCode ACCOUNT_DISABLED = new ErrorCode("ACCOUNT_DISABLED");
    public static final ErrorCode IDENTITY_SUSPENDED = new ErrorCode("IDENTITY_SUSPENDED");
    public static final ErrorCode UPSTREAM_UNAVAILABLE = new ErrorCode("UPSTREAM_UNAVAILABLE");

    /** Every code of contract v4, in the contract's order (a test checks it against docs/API.md). */
    public static final List<ErrorCode> ALL = Collections.unmodifiableList(Arrays.asList(INVALID_REQUEST,
            UNSUPPORTED_PROVIDER, INVALID_TOKEN, TOKEN_EXPIRED, ACCOUNT_NOT_FOUND, ACCOUNT_ALREADY_EXISTS,
            PROVIDER_ALREADY_LINKED, PROVIDER_NOT_LINKED, LAST_PROVIDER, SESSION_INVALID, REAUTHENTICATION_REQUIRED,
            CONFLICT, PURCHASE_BELONGS_TO_OTHER_ACCOUNT, INVALID_PURCHASE, ACCOUNT_DISABLED, IDENTITY_SUSPENDED,
            UPSTREAM_UNAVAILABLE));

    private final String value;

    private ErrorCode(String value) {
        this.value = value;
    }

    /** The known constant for {@code value}, or a new code this client does not know yet. */
    public static ErrorCode of(String value) {
        for (ErrorCode code : ALL) {
            if (code.value.equals(value)) {
                return code;
            }
        }
        return new ErrorCode(value);
    }

    /** The code as the contract spells it. */
    public String value() {
        return value;
    }

    /** Whether this client knows the code (a newer deployment's code is not known). */
    public boolean isKnown() {
        return ALL.contains(this);
    }

    /** What the UI should do about it. */
    public Recommendation recommendation() {
        if (this == INVALID_REQUEST || this == UNSUPPORTED_PROVIDER) {
            return Recommendation.FIX_THE_CALL;
        }
        if (this == INVALID_TOKEN || this == TOKEN_EXPIRED || this == SESSION_INVALID) {
            return Recommendation.SIGN_IN_AGAIN;
        }
        if (this == REAUTHENTICATION_REQUIRED) {
            return Recommendation.REAUTHENTICATE_THEN_RETRY;
        }
        return notice() != null ? Recommendation.TELL_USER : Recommendation.RETRY_LATER;
    }

    /** For {@link Recommendation#TELL_USER}: what to tell the user; null otherwise. */
    public UserNotice notice() {
        if (this == ACCOUNT_NOT_FOUND) {
            return UserNotice.NO_ACCOUNT_FOR_THIS_SIGN_IN;
        } else if (this == ACCOUNT_ALREADY_EXISTS) {
            return UserNotice.ACCOUNT_ALREADY_EXISTS;
        } else if (this == PROVIDER_ALREADY_LINKED) {
            return UserNotice.PROVIDER_BELONGS_TO_ANOTHER_ACCOUNT;
        } else if (this == PROVIDER_NOT_LINKED) {
            return UserNotice.PROVIDER_NOT_LINKED;
        } else if (this == LAST_PROVIDER) {
            return UserNotice.LAST_PROVIDER;
        } else if (this == PURCHASE_BELONGS_TO_OTHER_ACCOUNT) {
            return UserNotice.PURCHASE_BELONGS_TO_OTHER_ACCOUNT;
        } else if (this == INVALID_PURCHASE) {
            return UserNotice.PURCHASE_NOT_VALID;
        } else if (this == ACCOUNT_DISABLED) {
            return UserNotice.ACCOUNT_DISABLED;
        } else if (this == IDENTITY_SUSPENDED) {
            return UserNotice.IDENTITY_SUSPENDED;
        }
        return null;
    }

    /**
     * A definitive answer about the session that presented its refresh token: the client clears
     * the session on these and only these (the contract's "The app's clients").
     */
    boolean endsSession() {
        return this == SESSION_INVALID || this == ACCOUNT_NOT_FOUND || this == ACCOUNT_DISABLED;
    }

    /** Nothing was consumed on the server: the same call with the same token may succeed later. */
    boolean isTransient() {
        return this == UPSTREAM_UNAVAILABLE || this == CONFLICT;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ErrorCode && ((ErrorCode) other).value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }
}
