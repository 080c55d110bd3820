"""Google's Cross-Account Protection (RISC) on loopback, checking what it receives as Google does
(https://developers.google.com/identity/protocols/risc; Python ``cryptography``, independent of the
project's Swift):

- ``RiscTransmitter`` signs security event tokens (RFC 8417 SETs, Google's shape: ``iss``, ``aud``
  = an OAuth client id, ``iat``, ``jti``, ``events`` with an ``iss-sub`` subject) with its own RSA
  keys, serves them as a JWKS and ``/.well-known/risc-configuration`` (``issuer``, ``jwks_uri``),
  and pushes a token to a receiver as Google does (``POST``, ``Content-Type:
  application/secevent+jwt``, the body is the JWT; 202 means accepted).
- ``RiscManagementAPI`` is the RISC management API (``/v1beta/stream:update``, ``/v1beta/stream``,
  ``/v1beta/stream:verify``). Every call must carry, as its bearer, a JWT the service account
  signed itself: RS256, ``kid`` = the key file's ``private_key_id``, ``iss`` = ``sub`` = the
  service account's ``client_email``, ``aud`` =
  ``https://risc.googleapis.com/google.identity.risc.v1beta.RiscManagementService``, ``iat`` not in
  the future, ``exp`` after now and at most an hour after ``iat``; the signature must verify with
  the public half of that key. ``stream:update`` needs the push delivery method and an HTTPS
  receiver (loopback http is allowed here only: the tests have no TLS) and known event types;
  ``stream:verify`` sends a ``verification`` token carrying ``state`` to the registered receiver.
- ``ServiceAccount`` makes a key and writes a key file shaped like the one the Cloud console
  hands out (``type``, ``project_id``, ``private_key_id``, ``private_key``, ``client_email``, ...).
"""
import base64
import json
import secrets
import threading
import time
import urllib.error
import urllib.request
import uuid

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from .idp import GOOGLE_AUDIENCE, SigningKey, encode_jwt
from .loopback import LoopbackHTTPServer, QuietHandler

# The RISC configuration's issuer (https://accounts.google.com/.well-known/risc-configuration).
RISC_ISSUER = "https://accounts.google.com"
# The issuer Google's subjects name (its documentation's example token writes the slash).
SUBJECT_ISSUER = "https://accounts.google.com/"
MANAGEMENT_AUDIENCE = "https://risc.googleapis.com/google.identity.risc.v1beta.RiscManagementService"
PUSH = "https://schemas.openid.net/secevent/risc/delivery-method/push"
RISC_EVENT = "https://schemas.openid.net/secevent/risc/event-type/"
OAUTH_EVENT = "https://schemas.openid.net/secevent/oauth/event-type/"
EVENT_TYPES = {
    "sessions-revoked": RISC_EVENT + "sessions-revoked",
    "tokens-revoked": OAUTH_EVENT + "tokens-revoked",
    "token-revoked": OAUTH_EVENT + "token-revoked",
    "account-disabled": RISC_EVENT + "account-disabled",
    "account-enabled": RISC_EVENT + "account-enabled",
    "account-credential-change-required": RISC_EVENT + "account-credential-change-required",
    "verification": RISC_EVENT + "verification",
    "account-purged": RISC_EVENT + "account-purged",
}
MAX_BEARER_LIFETIME = 3600


def _b64url_decode(text: str) -> bytes:
    if "=" in text or not text:
        raise ValueError("not unpadded base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def push(url: str, token: str, timeout: float = 60) -> tuple[int, bytes]:
    """Delivers `token` to a receiver as Google's push delivery does; answers (status, body)."""
    req = urllib.request.Request(url, data=token.encode(), method="POST",
                                 headers={"Content-Type": "application/secevent+jwt", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


class RiscTransmitter(LoopbackHTTPServer):
    """Serves ``/risc/certs`` (its JWKS) and ``/.well-known/risc-configuration``; mints SETs."""

    def __init__(self, audience: str = GOOGLE_AUDIENCE):
        self.audience = audience
        self.keys = [SigningKey("risc-test-1")]
        self.fetches = 0

    @property
    def jwks_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/risc/certs"

    @property
    def configuration_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/.well-known/risc-configuration"

    def configuration(self) -> dict:
        return {"issuer": RISC_ISSUER, "jwks_uri": self.jwks_url, "delivery_methods_supported": [PUSH]}

    def function_env(self) -> dict:
        """What a deployment sets from this configuration (its `jwks_uri`)."""
        return {"GOOGLE_RISC_JWKS_URL": self.jwks_url}

    def handler(self):
        tx = self

        class Handler(QuietHandler):
            def do_GET(self):
                if self.path == "/risc/certs":
                    tx.fetches += 1
                    body = {"keys": [k.jwk() for k in tx.keys]}
                elif self.path == "/.well-known/risc-configuration":
                    body = tx.configuration()
                else:
                    self.send_error(404)
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Cache-Control", "public, max-age=3600")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def token(self, event: str, sub: str | None = None, reason: str | None = None, state: str | None = None,
              jti: str | None = None, iat: int | None = None, aud: str | None = None, iss: str = RISC_ISSUER,
              subject: dict | None = None, key: SigningKey | None = None, events: dict | None = None,
              **claims) -> str:
        """A SET as Google sends it: one event (`event` is its short name, or a full URI), about
        Google identity `sub` (an ``iss-sub`` subject) unless `subject` replaces it. `key`: sign
        with another key (one in no JWKS makes a forgery); `events` replaces the whole claim."""
        detail: dict = {}
        if subject is not None:
            detail["subject"] = subject
        elif sub is not None:
            detail["subject"] = {"subject_type": "iss-sub", "iss": SUBJECT_ISSUER, "sub": sub}
        if reason is not None:
            detail["reason"] = reason
        if state is not None:
            detail["state"] = state
        body = {"iss": iss, "aud": aud or self.audience, "iat": int(iat if iat is not None else time.time()),
                "jti": jti if jti is not None else secrets.token_hex(16).upper(),
                "events": events if events is not None else {EVENT_TYPES.get(event, event): detail}}
        body.update(claims)
        signer = key or self.keys[0]
        return encode_jwt({"alg": "RS256", "kid": signer.kid, "typ": "JWT"}, body, signer)


class ServiceAccount:
    """A Google service account's key, and its key file as the console hands it out."""

    def __init__(self, project: str = "photobackup-test", name: str = "risc-admin"):
        self.project = project
        self.client_email = f"{name}@{project}.iam.gserviceaccount.com"
        self.private_key_id = secrets.token_hex(20)
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def key_file(self) -> dict:
        pem = self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()).decode()
        return {"type": "service_account", "project_id": self.project, "private_key_id": self.private_key_id,
                "private_key": pem, "client_email": self.client_email, "client_id": str(10**20 + secrets.randbelow(10**20)),
                "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token",
                "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
                "client_x509_cert_url": f"https://www.googleapis.com/robot/v1/metadata/x509/{self.client_email}",
                "universe_domain": "googleapis.com"}

    def write_key_file(self, path) -> str:
        with open(path, "w") as f:
            json.dump(self.key_file(), f)
        return str(path)


class RiscManagementAPI(LoopbackHTTPServer):
    """The RISC management API of one project, on 127.0.0.1."""

    def __init__(self, transmitter: RiscTransmitter, account: ServiceAccount):
        self.transmitter = transmitter
        self.account = account
        self.stream: dict | None = None
        self.requests: list[dict] = []  # {"path", "status", "why"} of every call
        self.deliveries: list[dict] = []  # verification tokens pushed: {"url", "state", "status"}
        self._lock = threading.Lock()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- what Google checks -----------------------------------------------------------------------
    def check_bearer(self, header: str | None) -> str | None:
        """None when the bearer is the service account's own valid JWT, else why not."""
        if not header or not header.startswith("Bearer "):
            return "no bearer token"
        parts = header[len("Bearer "):].split(".")
        if len(parts) != 3:
            return "bearer is not a JWT"
        try:
            head, claims, sig = json.loads(_b64url_decode(parts[0])), json.loads(_b64url_decode(parts[1])), \
                _b64url_decode(parts[2])
        except ValueError:
            return "bearer is not base64url JSON"
        if head.get("alg") != "RS256":
            return "alg is not RS256"
        if head.get("kid") != self.account.private_key_id:
            return "kid names no key of the service account"
        try:
            self.account.key.public_key().verify(sig, f"{parts[0]}.{parts[1]}".encode(), padding.PKCS1v15(),
                                                 hashes.SHA256())
        except InvalidSignature:
            return "signature does not verify with the service account's key"
        now = int(time.time())
        if claims.get("iss") != self.account.client_email or claims.get("sub") != self.account.client_email:
            return "iss/sub is not the service account"
        if claims.get("aud") != MANAGEMENT_AUDIENCE:
            return "aud is not the RISC management service"
        iat, exp = claims.get("iat"), claims.get("exp")
        if not isinstance(iat, int) or not isinstance(exp, int):
            return "iat/exp missing"
        if iat > now + 60:
            return "iat is in the future"
        if exp <= now:
            return "expired"
        if exp - iat > MAX_BEARER_LIFETIME:
            return "lifetime over one hour"
        return None

    def _update(self, body: dict) -> tuple[int, dict]:
        delivery = body.get("delivery")
        if not isinstance(delivery, dict):
            return 400, {"error": {"code": 400, "message": "Stream configuration must contain delivery field."}}
        if delivery.get("delivery_method") != PUSH:
            return 400, {"error": {"code": 400, "message": "Unsupported delivery method."}}
        url = delivery.get("url")
        if not isinstance(url, str) or not (url.startswith("https://") or url.startswith("http://127.0.0.1:")):
            return 403, {"error": {"code": 403, "message": "The delivery endpoint must be an HTTPS URL."}}
        requested = body.get("events_requested")
        if not isinstance(requested, list) or not requested or not all(e in EVENT_TYPES.values() for e in requested):
            return 400, {"error": {"code": 400, "message": "Stream configuration must contain events_requested field."}}
        self.stream = {"delivery": {"delivery_method": PUSH, "url": url}, "events_requested": requested,
                       "events_delivered": [e for e in requested if not e.endswith("/account-purged")]}
        return 200, self.stream

    def _verify(self, body: dict) -> tuple[int, dict]:
        if self.stream is None:
            return 404, {"error": {"code": 404, "message": "Project has no RISC configuration."}}
        if EVENT_TYPES["verification"] not in self.stream["events_requested"]:
            return 400, {"error": {"code": 400, "message": "The stream does not request verification events."}}
        state = body.get("state")
        if state is not None and not isinstance(state, str):
            return 400, {"error": {"code": 400, "message": "state must be a string."}}
        token = self.transmitter.token("verification", state=state)
        status, _ = push(self.stream["delivery"]["url"], token)
        self.deliveries.append({"url": self.stream["delivery"]["url"], "state": state, "status": status})
        return 200, {}

    def handler(self):
        api = self

        class Handler(QuietHandler):
            def _answer(self, status: int, body: dict, why: str | None = None):
                with api._lock:
                    api.requests.append({"path": self.path, "status": status, "why": why})
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _authorised(self) -> bool:
                why = api.check_bearer(self.headers.get("Authorization"))
                if why:
                    self._answer(401, {"error": {"code": 401, "message": "Unauthorized.", "status": "UNAUTHENTICATED"}},
                                 why)
                return why is None

            def do_GET(self):
                if self.path != "/v1beta/stream":
                    self._answer(404, {"error": {"code": 404, "message": "Not Found"}})
                elif self._authorised():
                    if api.stream is None:
                        self._answer(404, {"error": {"code": 404, "message": "Project has no RISC configuration."}})
                    else:
                        self._answer(200, api.stream)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if self.path not in ("/v1beta/stream:update", "/v1beta/stream:verify"):
                    self._answer(404, {"error": {"code": 404, "message": "Not Found"}})
                    return
                if not self._authorised():
                    return
                try:
                    body = json.loads(raw or b"{}")
                    if not isinstance(body, dict):
                        raise ValueError
                except ValueError:
                    self._answer(400, {"error": {"code": 400, "message": "Invalid JSON payload received."}})
                    return
                status, out = api._update(body) if self.path.endswith(":update") else api._verify(body)
                self._answer(status, out)

        return Handler


def forged_key() -> SigningKey:
    """A key in no JWKS, with the transmitter's key id (a forgery's signature)."""
    return SigningKey("risc-test-1")


def fresh_sub() -> str:
    return str(100000000000000000000 + uuid.uuid4().int % 10**20)
