"""Sign in with Apple's app-transfer side (TN3159, "Transferring your apps and users to another
team", "Bringing new apps and users into your team") for the loopback Apple stand-in
(``apple_auth.AppleAuthServer``), checking what Apple checks:

- developer teams, each with its own Sign in with Apple key; a ``client_secret`` is verified
  against the key of the team its ``iss`` names (``kid``, signature, ``sub`` = client id, ``aud``,
  ``iat``/``exp``);
- ``POST /auth/token`` with ``grant_type=client_credentials`` and ``scope=user.migration`` gives a
  team an access token for an hour (Apple DTS: reusable within it); another scope is
  ``invalid_scope``;
- ``POST /auth/usermigrationinfo`` takes that token as ``Authorization: Bearer`` (missing:
  ``invalid_request``; unknown, expired or another team's: ``invalid_grant``) and either
  ``sub`` + ``target`` (the sending team: the user's ``transfer_sub`` for the target team, which
  must be another known team) or ``transfer_sub`` (the recipient team, once the app was transferred
  to it and within 60 days: the user's new ``sub``, relay email and ``is_private_email``). A
  ``transfer_sub`` is valid only for its target team. Unknown users, and users chosen with
  ``refuse``, get ``invalid_request`` (DTS: usually users who revoked the app);
- users have one ``sub`` per team and one ``transfer_sub`` per target team, deterministic (the same
  for the same user and team across runs and processes);
- knobs: ``throttle_next`` (the next n migration requests answer 429 with ``Retry-After``),
  ``rate_limit`` (a token bucket; beyond it 429 ``Retry-After: 1``) and ``expire_tokens_at``; ``id_token_claims`` mints a
  user's ID token claims under the app's current team, with ``transfer_sub`` for 60 days after a
  transfer.
"""
import hashlib
import hmac
import json
import secrets
import threading
import time

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

# Fixed, so identifiers are the same in every run: the stand-in's own "Apple" secret.
_IDENTITY_KEY = b"signin-standin-apple-identities"
TOKEN_LIFETIME = 3600
TRANSFER_WINDOW = 60 * 86400


class Team:
    """A developer team as Apple knows it: its id and its Sign in with Apple key."""

    def __init__(self, team_id: str, key_id: str, key=None):
        self.team_id, self.key_id = team_id, key_id
        self.key = key or ec.generate_private_key(ec.SECP256R1())

    def private_key_pem(self) -> str:
        return self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()).decode()


def _digest(*parts: str) -> str:
    return hmac.new(_IDENTITY_KEY, "\x00".join(parts).encode(), hashlib.sha256).hexdigest()


def sub_for(team_id: str, person: str) -> str:
    """The user's team-scoped ``sub``, shaped like Apple's (``000123.<32 hex>.0456``)."""
    d = _digest("sub", team_id, person)
    return f"{int(d[:6], 16) % 1_000_000:06d}.{d[6:38]}.{int(d[38:42], 16) % 10_000:04d}"


def transfer_sub_for(target: str, person: str) -> str:
    d = _digest("transfer", target, person)
    return f"{int(d[:6], 16) % 1_000_000:06d}.{d[6:38]}.{int(d[38:42], 16) % 10_000:04d}"


def relay_email(team_id: str, person: str) -> str:
    return f"{_digest('relay', team_id, person)[:10]}@privaterelay.appleid.com"


class UserMigration:
    """The migration state of one stand-in: teams, users, tokens, the app's owner."""

    def __init__(self, home: Team, client_id: str):
        self.client_id = client_id
        self.teams = {home.team_id: home}
        self.app_team = home.team_id
        self.previous_team = None
        self.transferred_at = None
        self.people = {}          # sub -> (team, person)
        self.transfers = {}       # transfer_sub -> (target, person)
        self.tokens = {}          # access token -> (team, expires_at)
        self.refused = set()      # persons answered invalid_request
        self.throttled = []       # Retry-After values of the next 429s
        self.rate = None          # requests a second, token bucket
        self._bucket = (0.0, 0.0)  # (tokens, last refill)
        self.counts = {"client_credentials": 0, "usermigrationinfo": 0, "throttled": 0, "transfer_sub": 0,
                       "exchange": 0}
        self.now = time.time
        self._expire_at = None
        self._lock = threading.Lock()

    # -- the world ---------------------------------------------------------------------------

    def add_team(self, team_id: str, key_id: str) -> Team:
        team = Team(team_id, key_id)
        self.teams[team_id] = team
        return team

    def user(self, person: str) -> str:
        """A user of the app (now, under its current team): their ``sub`` there."""
        sub = sub_for(self.app_team, person)
        with self._lock:
            self.people[sub] = (self.app_team, person)
        return sub

    def users(self, persons) -> list:
        return [self.user(p) for p in persons]

    def adopt(self, sub: str, person: str) -> None:
        """A user whose ``sub`` (under the app's current team) was made elsewhere (a benchmark's
        seeded bucket): Apple knows them from now on."""
        with self._lock:
            self.people[sub] = (self.app_team, person)

    def person_of(self, sub: str) -> str | None:
        entry = self.people.get(sub)
        return entry[1] if entry else None

    def refuse(self, person: str) -> None:
        """This user revoked the app: Apple answers ``invalid_request`` about them."""
        self.refused.add(person)

    def transfer(self, to_team: str, at: float | None = None) -> None:
        """App Store Connect moves the app to ``to_team`` (``at``: when, default now)."""
        if to_team not in self.teams:
            raise ValueError("unknown team")
        self.previous_team, self.app_team = self.app_team, to_team
        self.transferred_at = self.now() if at is None else at

    def in_window(self) -> bool:
        return self.transferred_at is not None and self.now() - self.transferred_at <= TRANSFER_WINDOW

    def id_token_claims(self, person: str) -> dict:
        """What an ID token of the app's current team says about ``person``: ``sub``, email, and
        for 60 days after a transfer, for a user the previous team had, ``transfer_sub``."""
        sub = self.user(person)
        claims = {"sub": sub, "email": relay_email(self.app_team, person), "is_private_email": "true"}
        if self.in_window() and sub_for(self.previous_team, person) in self.people:
            claims["transfer_sub"] = transfer_sub_for(self.app_team, person)
        return claims

    # -- knobs -------------------------------------------------------------------------------

    def throttle_next(self, n: int, retry_after: int = 1) -> None:
        with self._lock:
            self.throttled = [retry_after] * n

    def expire_tokens_at(self, n: int) -> None:
        """Every access token issued so far stops working at the ``n``-th migration request (an
        hour passing mid-run): Apple answers ``invalid_grant`` until the client gets a new one."""
        with self._lock:
            self._expire_at = n

    def rate_limit(self, per_second: float | None) -> None:
        with self._lock:
            self.rate = per_second
            self._bucket = (per_second or 0.0, self.now())

    # -- endpoints ---------------------------------------------------------------------------

    def client_credentials(self, form: dict, team: str) -> tuple[int, dict, dict]:
        if form.get("scope") != "user.migration":
            return 400, {"error": "invalid_scope"}, {}
        token = f"a{secrets.token_hex(16)}.0.mrut.{secrets.token_urlsafe(16)}"
        with self._lock:
            self.counts["client_credentials"] += 1
            self.tokens[token] = (team, self.now() + TOKEN_LIFETIME)
        return 200, {"access_token": token, "token_type": "Bearer", "expires_in": TOKEN_LIFETIME}, {}

    def _limited(self) -> int | None:
        """The Retry-After of a 429 for this request, or None."""
        with self._lock:
            if self.throttled:
                self.counts["throttled"] += 1
                return self.throttled.pop(0)
            if self.rate:
                tokens, last = self._bucket
                now = self.now()
                tokens = min(self.rate, tokens + (now - last) * self.rate)
                if tokens < 1:
                    self._bucket = (tokens, now)
                    self.counts["throttled"] += 1
                    return 1
                self._bucket = (tokens - 1, now)
        return None

    def usermigrationinfo(self, form: dict, team: str | None, authorization: str | None) -> tuple[int, dict, dict]:
        with self._lock:
            self.counts["usermigrationinfo"] += 1
            if self._expire_at is not None and self.counts["usermigrationinfo"] >= self._expire_at:
                self._expire_at = None
                self.tokens.clear()
        retry_after = self._limited()
        if retry_after is not None:
            return 429, {"error": "too_many_requests"}, {"Retry-After": str(retry_after)}
        if team is None:
            return 400, {"error": "invalid_client"}, {}
        if not authorization or not authorization.startswith("Bearer "):
            return 400, {"error": "invalid_request"}, {}
        entry = self.tokens.get(authorization[len("Bearer "):])
        if entry is None or entry[0] != team or entry[1] < self.now():
            return 400, {"error": "invalid_grant"}, {}
        if "sub" in form and "target" in form and "transfer_sub" not in form:
            return self._transfer_sub(form, team)
        if "transfer_sub" in form and "sub" not in form and "target" not in form:
            return self._exchange(form, team)
        return 400, {"error": "invalid_request"}, {}

    def _transfer_sub(self, form: dict, team: str) -> tuple[int, dict, dict]:
        target = form["target"]
        owner = team == self.app_team or (team == self.previous_team and self.in_window())
        who = self.people.get(form["sub"])
        if target not in self.teams or target == team or not owner or who is None or who[0] != team \
                or who[1] in self.refused:
            return 400, {"error": "invalid_request"}, {}
        transfer_sub = transfer_sub_for(target, who[1])
        with self._lock:
            self.transfers[transfer_sub] = (target, who[1])
            self.counts["transfer_sub"] += 1
        return 200, {"transfer_sub": transfer_sub}, {}

    def _exchange(self, form: dict, team: str) -> tuple[int, dict, dict]:
        entry = self.transfers.get(form["transfer_sub"])
        if team != self.app_team or not self.in_window() or entry is None or entry[0] != team \
                or entry[1] in self.refused:
            return 400, {"error": "invalid_request"}, {}
        person = entry[1]
        sub = sub_for(team, person)
        with self._lock:
            self.people[sub] = (team, person)
            self.counts["exchange"] += 1
        return 200, {"sub": sub, "email": relay_email(team, person), "is_private_email": True}, {}

    def state(self) -> dict:
        return {"app_team": self.app_team, "counts": dict(self.counts), "users": len(self.people),
                "transfers": len(self.transfers)}


def answer_json(handler, status: int, body: dict | None, headers: dict | None = None) -> None:
    data = json.dumps(body).encode() if body is not None else b""
    handler.send_response(status)
    if body is not None:
        handler.send_header("Content-Type", "application/json;charset=UTF-8")
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)
