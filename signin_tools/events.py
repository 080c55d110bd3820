"""Event and token shapes the tests, the storm and the soak all send: Function URL events,
EventBridge's scheduled event, fresh provider subjects, refresh-token anatomy."""
import base64
import time
import uuid as uuidlib


def apple_sub() -> str:
    return f"001234.{uuidlib.uuid4().hex}.0001"


def google_sub() -> str:
    return str(100000000000000000000 + uuidlib.uuid4().int % 10**20)


# -- refresh tokens: `rt1_` + base64url, unpadded, of uuid 16 ‖ session id 16 ‖ secret 32 --
# (docs/decisions/accounts-and-sessions.md, "Refresh tokens and sessions")

def _token_bytes(token: str) -> bytes:
    assert token.startswith("rt1_"), "not a refresh token"
    body = token[4:]
    raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    assert len(raw) == 64, "a refresh token holds 64 bytes"
    return raw


def session_id_of(token: str) -> str:
    """The session id inside a refresh token (32 lowercase hex)."""
    return _token_bytes(token)[16:32].hex()


def account_of(token: str) -> str:
    """The account UUID inside a refresh token."""
    return str(uuidlib.UUID(bytes=_token_bytes(token)[:16]))


def forged(token: str) -> str:
    """The same account and session id with a secret the session never issued (one bit of the
    last byte flipped), re-encoded unpadded: what an attacker who knows the ids could send."""
    raw = bytearray(_token_bytes(token))
    raw[-1] ^= 0x01
    return "rt1_" + base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()


# -- Function URL events (HTTP payload format 2.0) ---------------------------------------------------

def url_event(body: str | None, base64_encoded: bool = False, path: str = "/", method: str = "POST",
              query: str = "") -> dict:
    """What a Lambda Function URL sends for `METHOD PATH?QUERY` (HTTP payload format 2.0)."""
    return {
        "version": "2.0", "routeKey": "$default", "rawPath": path, "rawQueryString": query,
        "headers": {"content-type": "application/json", "host": "abc123.lambda-url.us-east-1.on.aws",
                    "user-agent": "SigninApp/1.0", "x-forwarded-proto": "https"},
        "requestContext": {
            "accountId": "anonymous", "apiId": "abc123", "domainName": "abc123.lambda-url.us-east-1.on.aws",
            "domainPrefix": "abc123", "requestId": str(uuidlib.uuid4()), "routeKey": "$default", "stage": "$default",
            "time": "01/Jan/2025:00:00:00 +0000", "timeEpoch": 1735689600000,
            "http": {"method": method, "path": path, "protocol": "HTTP/1.1", "sourceIp": "192.0.2.10",
                     "userAgent": "SigninApp/1.0"},
        },
        "body": body,
        "isBase64Encoded": base64_encoded,
    }


def scheduled_event() -> dict:
    """EventBridge's scheduled event, as the template's hourly rule sends it to auth-link."""
    return {"version": "0", "id": str(uuidlib.uuid4()), "detail-type": "Scheduled Event", "source": "aws.events",
            "account": "123456789012", "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "region": "us-east-1", "resources": ["arn:aws:events:us-east-1:123456789012:rule/hourly"], "detail": {}}
