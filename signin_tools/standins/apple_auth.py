"""A stand-in for Sign in with Apple's token endpoints (``/auth/token``, ``/auth/revoke``) on
loopback, checking every request the way Apple does: ``client_secret`` must be an ES256 JWT
signed with the "Sign in with Apple key" this server made (Python ``cryptography``, independent
of the project's Swift), with Apple's header and claims; authorization codes are single use and
expire after five minutes; the id_token of an exchange is minted by the test IdP, so the
function's TokenVerifier accepts it. Knobs simulate outages and a code from another Apple ID.
An app transfer's side (``/auth/usermigrationinfo``, the client-credentials grant, more than one
developer team) is ``apple_migration.UserMigration``, reached as ``migration``."""
import base64
import json
import secrets
import threading
import time
from urllib.parse import parse_qs

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from .apple_migration import Team, UserMigration, answer_json
from .idp import APPLE_AUDIENCE, IdentityProvider
from .loopback import LoopbackHTTPServer, QuietHandler

APPLE_AUDIENCE_OF_SECRETS = "https://appleid.apple.com"
MAX_SECRET_LIFETIME = 15_777_000  # seconds: Apple refuses a client_secret whose exp is further out
CODE_LIFETIME = 300
HANG_SECONDS = 30  # a "hanging" outage holds each request at most this long


def _b64url_decode(text: str) -> bytes:
    if "=" in text or not text:
        raise ValueError("not unpadded base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _opaque(prefix: str) -> str:
    """Shaped like Apple's codes and tokens: ``c…``/``r…``/``a…`` hex, ``.0.``, a short tag, base64url."""
    return f"{prefix}{secrets.token_hex(16)}.0.mxzs.{secrets.token_urlsafe(16)}"


class AppleAuthServer(LoopbackHTTPServer):
    """``/auth/token``, ``/auth/revoke`` and ``/auth/usermigrationinfo`` on 127.0.0.1 (port 0: a free one)."""

    def __init__(self, idp: IdentityProvider, client_id: str = APPLE_AUDIENCE, team_id: str = "TEAMID1234",
                 key_id: str = "KEYID12345"):
        self.idp = idp
        self.client_id = client_id
        self.team_id = team_id
        self.key_id = key_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.migration = UserMigration(Team(team_id, key_id, self.key), client_id)
        self.codes = {}  # code -> (sub, email, expires_at)
        self.revoked = []  # (token, hint), in arrival order
        self.requests = {"token": 0, "revoke": 0, "usermigrationinfo": 0}
        self.id_token_sub_override = None
        self._fail = []  # statuses for the next requests
        self._down = None  # None, "503" or "hang"
        self._stopping = threading.Event()
        self._lock = threading.Lock()

    # -- configuration --------------------------------------------------------------------

    @property
    def auth_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def private_key_pem(self) -> str:
        return self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()).decode()

    def function_env(self, team: str | None = None) -> dict:
        """The deployment's Apple settings for the home team, or for another registered ``team``."""
        t = self.migration.teams[team or self.team_id]
        return {"APPLE_TEAM_ID": t.team_id, "APPLE_KEY_ID": t.key_id, "APPLE_PRIVATE_KEY": t.private_key_pem(),
                "APPLE_AUTH_URL": self.auth_url, "APPLE_CLIENT_ID": self.client_id}

    # -- knobs ----------------------------------------------------------------------------

    def issue_code(self, sub: str, email: str | None = None) -> str:
        """A single-use authorization code for ``sub``, valid for five minutes."""
        code = _opaque("c")
        with self._lock:
            self.codes[code] = (sub, email, time.time() + CODE_LIFETIME)
        return code

    def fail_next(self, n: int, status: int = 503) -> None:
        """The next ``n`` requests (either endpoint) answer ``status`` before anything is checked."""
        with self._lock:
            self._fail = [status] * n

    def down(self, hang: bool = False) -> None:
        """An outage until ``up()``: every request answers 503, or (``hang``) gets no answer for
        up to 30 s and then 503, so the client's timeouts and deadline are what end it."""
        self._down = "hang" if hang else "503"

    def up(self) -> None:
        self._down = None

    # -- Apple's checks -------------------------------------------------------------------

    def check_client(self, form: dict) -> bool:
        return self.client_team(form) is not None

    def client_team(self, form: dict) -> str | None:
        """Apple's client authentication: ``client_id`` and an ES256 ``client_secret`` signed with
        the key of the team its ``iss`` names (header ``kid`` that key's id), claims ``sub`` (the
        client id), ``aud``, ``iat``/``exp``. The team, or None."""
        try:
            if form.get("client_id") != self.client_id:
                return None
            parts = form.get("client_secret", "").split(".")
            if len(parts) != 3:
                return None
            header = json.loads(_b64url_decode(parts[0]))
            claims = json.loads(_b64url_decode(parts[1]))
            signature = _b64url_decode(parts[2])
            team = self.migration.teams.get(claims.get("iss")) if isinstance(claims.get("iss"), str) else None
            if team is None or header.get("alg") != "ES256" or header.get("kid") != team.key_id or len(signature) != 64:
                return None
            der = utils.encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
            team.key.public_key().verify(der, f"{parts[0]}.{parts[1]}".encode(), ec.ECDSA(hashes.SHA256()))
            iat, exp, now = claims.get("iat"), claims.get("exp"), time.time()
            ok = (claims.get("sub") == self.client_id and claims.get("aud") == APPLE_AUDIENCE_OF_SECRETS
                  and type(iat) is int and type(exp) is int and iat <= now + 60 and exp > now
                  and exp <= iat + MAX_SECRET_LIFETIME)
            return team.team_id if ok else None
        except (ValueError, InvalidSignature, AttributeError, TypeError):
            return None

    def token(self, form: dict) -> tuple[int, dict | None]:
        team = self.client_team(form)
        if team is None:
            return 400, {"error": "invalid_client"}
        if form.get("grant_type") == "client_credentials":
            return self.migration.client_credentials(form, team)[:2]
        if form.get("grant_type") != "authorization_code":
            return 400, {"error": "unsupported_grant_type"}
        if "code" not in form:
            return 400, {"error": "invalid_request"}
        with self._lock:
            entry = self.codes.pop(form["code"], None)  # single use: gone whatever happens next
        if entry is None or entry[2] < time.time():
            return 400, {"error": "invalid_grant", "error_description": "The code has expired or has been revoked."}
        sub, email, _ = entry
        token_sub = self.id_token_sub_override or sub
        refresh, access = _opaque("r"), _opaque("a")
        id_token = self.idp.mint("apple", self.idp.apple_claims(token_sub, email=email, aud=self.client_id))
        return 200, {"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": refresh,
                     "id_token": id_token}

    def revoke(self, form: dict) -> tuple[int, dict | None]:
        if not self.check_client(form):
            return 400, {"error": "invalid_client"}
        if "token" not in form:
            return 400, {"error": "invalid_request"}
        hint = form.get("token_type_hint")
        if hint not in (None, "refresh_token", "access_token"):
            return 400, {"error": "unsupported_token_type"}
        with self._lock:
            self.revoked.append((form["token"], hint))
        return 200, None  # also for a token Apple does not know (RFC 7009 §2.2)

    # -- server ---------------------------------------------------------------------------

    def handler(self):
        apple = self

        class Handler(QuietHandler):
            def answer(self, status: int, body: dict | None) -> None:
                answer_json(self, status, body)

            def do_POST(self):
                endpoint = {"/auth/token": "token", "/auth/revoke": "revoke",
                            "/auth/usermigrationinfo": "usermigrationinfo"}.get(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(min(length, 1 << 20)).decode("utf-8", "replace")
                if endpoint is None:
                    self.answer(404, {"error": "not_found"})
                    return
                with apple._lock:
                    apple.requests[endpoint] += 1
                    failing = apple._fail.pop(0) if apple._fail else None
                if apple._down == "hang":
                    apple._stopping.wait(HANG_SECONDS)
                if apple._down or failing:
                    self.answer(failing or 503, None)
                    return
                if not (self.headers.get("Content-Type") or "").startswith("application/x-www-form-urlencoded"):
                    self.answer(400, {"error": "invalid_request"})
                    return
                try:
                    fields = parse_qs(raw, keep_blank_values=True, strict_parsing=True)
                except ValueError:
                    self.answer(400, {"error": "invalid_request"})
                    return
                if any(len(v) != 1 for v in fields.values()):
                    self.answer(400, {"error": "invalid_request"})  # a parameter given twice
                    return
                form = {k: v[0] for k, v in fields.items()}
                if endpoint == "usermigrationinfo":
                    answer_json(self, *apple.migration.usermigrationinfo(
                        form, apple.client_team(form), self.headers.get("Authorization")))
                    return
                self.answer(*(apple.token(form) if endpoint == "token" else apple.revoke(form)))

        return Handler

    def stop(self) -> None:
        self._stopping.set()  # releases hanging requests
        super().stop()
