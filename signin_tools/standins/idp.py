"""A test identity provider: mints ID tokens shaped as Apple, Google and Firebase Auth send them,
signed with its own RSA keys (Python ``cryptography``: an implementation independent of the
project's), and serves the public keys as a JWKS on loopback, one set per provider. Issuers and
claim shapes are the real ones."""
import base64
import hashlib
import hmac
import json
import time
import uuid

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from .loopback import LoopbackHTTPServer, QuietHandler

APPLE_ISSUER = "https://appleid.apple.com"
GOOGLE_ISSUER = "https://accounts.google.com"
APPLE_AUDIENCE = "com.example.photobackup"
GOOGLE_AUDIENCE = "1234567890-photobackup.apps.googleusercontent.com"
FIREBASE_PROJECT_ID = "photobackup-test"
FIREBASE_ISSUER_PREFIX = "https://securetoken.google.com/"
# The path of Google's securetoken JWKS, '@' included, so the tests' URL takes the real one's shape.
FIREBASE_JWKS_PATH = "/firebase/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
PROVIDERS = ("apple", "google", "firebase")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _uint(n: int) -> bytes:
    return n.to_bytes((n.bit_length() + 7) // 8, "big")


class SigningKey:
    def __init__(self, kid: str, bits: int = 2048, private_key=None):
        self.kid = kid
        self.private_key = private_key or rsa.generate_private_key(public_exponent=65537, key_size=bits)

    def jwk(self) -> dict:
        pub = self.private_key.public_key().public_numbers()
        return {"kty": "RSA", "kid": self.kid, "use": "sig", "alg": "RS256", "n": b64url(_uint(pub.n)), "e": b64url(_uint(pub.e))}

    def sign(self, signing_input: bytes) -> bytes:
        return self.private_key.sign(signing_input, padding.PKCS1v15(), hashes.SHA256())

    def pem(self) -> bytes:
        return self.private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption())

    @classmethod
    def from_pem(cls, kid: str, pem: bytes) -> "SigningKey":
        return cls(kid, private_key=serialization.load_pem_private_key(pem, password=None))


def encode_jwt(header: dict, claims: dict, key: SigningKey) -> str:
    signing_input = f"{b64url(json.dumps(header, separators=(',', ':')).encode())}.{b64url(json.dumps(claims, separators=(',', ':')).encode())}"
    return f"{signing_input}.{b64url(key.sign(signing_input.encode()))}"


class IdentityProvider(LoopbackHTTPServer):
    """Serves ``/apple/keys``, ``/google/certs`` and ``/firebase/...`` (``FIREBASE_JWKS_PATH``) on
    127.0.0.1 and mints tokens for all three."""

    def __init__(self, apple_key: SigningKey | None = None, google_key: SigningKey | None = None,
                 firebase_key: SigningKey | None = None):
        self.apple_keys = [apple_key or SigningKey("apple-test-1")]
        self.google_keys = [google_key or SigningKey("google-test-1")]
        self.firebase_keys = [firebase_key or SigningKey("firebase-test-1")]
        self.max_age = 3600  # None: no Cache-Control header at all
        self.fetches = {"apple": 0, "google": 0, "firebase": 0}
        self.fail = False  # answer 503 (outage simulation)

    @property
    def apple_jwks_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/apple/keys"

    @property
    def google_jwks_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/google/certs"

    @property
    def firebase_jwks_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{FIREBASE_JWKS_PATH}"

    def keys_of(self, provider: str) -> list:
        """The provider's JWKS, as a list the caller may change (first key signs by default)."""
        return {"apple": self.apple_keys, "google": self.google_keys, "firebase": self.firebase_keys}[provider]

    def function_env(self) -> dict:
        return {"APPLE_AUDIENCES": APPLE_AUDIENCE, "GOOGLE_AUDIENCES": GOOGLE_AUDIENCE,
                "APPLE_JWKS_URL": self.apple_jwks_url, "GOOGLE_JWKS_URL": self.google_jwks_url,
                "FIREBASE_PROJECT_ID": FIREBASE_PROJECT_ID, "FIREBASE_JWKS_URL": self.firebase_jwks_url,
                "FIREBASE_ALLOW_ANONYMOUS": "false"}

    def handler(self):
        idp = self

        class Handler(QuietHandler):
            def do_GET(self):
                provider = next((p for p in PROVIDERS if self.path.startswith(f"/{p}/")), None)
                if provider is None:
                    self.send_error(404)
                    return
                idp.fetches[provider] += 1
                if idp.fail:
                    self.send_error(503)
                    return
                keys = idp.keys_of(provider)
                body = json.dumps({"keys": [k.jwk() for k in keys]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                if idp.max_age is not None:
                    self.send_header("Cache-Control", f"public, max-age={idp.max_age}")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler

    # -- minting ---------------------------------------------------------------------------

    def apple_claims(self, sub: str, email: str | None = None, nonce: str | None = None, private_email: bool = False,
                     now: int | None = None, lifetime: int = 600, aud: str = APPLE_AUDIENCE, **extra) -> dict:
        """Claims as Sign in with Apple sends them (booleans sometimes arrive as strings)."""
        now = int(now if now is not None else time.time())
        email = email or f"{sub.split('.')[-1][:8]}@privaterelay.appleid.com"
        claims = {"iss": APPLE_ISSUER, "aud": aud, "exp": now + lifetime, "iat": now, "sub": sub,
                  "c_hash": b64url(hashlib.sha256(uuid.uuid4().bytes).digest()[:16]), "email": email,
                  "email_verified": "true", "auth_time": now, "nonce_supported": True, "real_user_status": 2}
        if private_email:
            claims["is_private_email"] = "true"
        if nonce is not None:
            claims["nonce"] = hashlib.sha256(nonce.encode()).hexdigest()
        claims.update(extra)
        return claims

    def google_claims(self, sub: str, email: str | None = None, name: str | None = None, nonce: str | None = None,
                      now: int | None = None, lifetime: int = 3600, aud: str = GOOGLE_AUDIENCE, **extra) -> dict:
        now = int(now if now is not None else time.time())
        email = email or f"user{sub[-6:]}@gmail.com"
        claims = {"iss": GOOGLE_ISSUER, "azp": aud, "aud": aud, "sub": sub, "email": email, "email_verified": True,
                  "at_hash": b64url(hashlib.sha256(uuid.uuid4().bytes).digest()[:16]), "iat": now, "exp": now + lifetime}
        if name:
            given, _, family = name.partition(" ")
            claims.update({"name": name, "given_name": given, "family_name": family,
                           "picture": "https://lh3.googleusercontent.com/a/example=s96-c"})
        if nonce is not None:
            claims["nonce"] = nonce
        claims.update(extra)
        return claims

    def firebase_claims(self, sub: str, email: str | None = None, name: str | None = None,
                        sign_in_provider: str = "password", identities: dict | None = None, now: int | None = None,
                        auth_time: int | None = None, lifetime: int = 3600, project: str = FIREBASE_PROJECT_ID,
                        aud: str | None = None, **extra) -> dict:
        """Claims as Firebase Auth puts them in an ID token: the project's issuer and audience,
        ``user_id`` = ``sub`` (the uid), ``auth_time`` (the sign-in, earlier than ``iat`` after a
        refresh), and ``firebase``: ``sign_in_provider`` and the ``identities`` Firebase knows of.
        An anonymous user (``sign_in_provider="anonymous"``) has no email and no identities."""
        now = int(now if now is not None else time.time())
        claims = {"iss": FIREBASE_ISSUER_PREFIX + project, "aud": aud or project,
                  "auth_time": auth_time if auth_time is not None else now, "user_id": sub, "sub": sub, "iat": now,
                  "exp": now + lifetime}
        if sign_in_provider == "anonymous":
            claims["firebase"] = {"identities": identities or {}, "sign_in_provider": "anonymous"}
        else:
            email = email or f"user{sub[-6:].lower()}@example.com"
            claims.update({"email": email, "email_verified": True})
            claims["firebase"] = {"identities": identities or {"email": [email]}, "sign_in_provider": sign_in_provider}
        if name:
            claims.update({"name": name, "picture": "https://lh3.googleusercontent.com/a/example=s96-c"})
        claims.update(extra)
        return claims

    def mint(self, provider: str, claims: dict, header: dict | None = None, key: SigningKey | None = None) -> str:
        key = key or self.keys_of(provider)[0]
        hdr = {"alg": "RS256", "kid": key.kid}
        if provider in ("google", "firebase"):
            hdr["typ"] = "JWT"
        hdr.update(header or {})
        return encode_jwt(hdr, claims, key)

    # -- attacks (the test suites' forgeries, made by this independent implementation) -------

    def key_by_kid(self, provider: str, kid: str) -> SigningKey:
        for key in self.keys_of(provider):
            if key.kid == kid:
                return key
        raise KeyError(kid)

    def add_key(self, provider: str, bits: int = 2048, kid: str | None = None) -> SigningKey:
        """Appends a key to the provider's JWKS (the signing default stays the first key)."""
        keys = self.keys_of(provider)
        key = SigningKey(kid or f"{provider}-extra-{len(keys) + 1}", bits=bits)
        keys.append(key)
        return key

    def forge(self, provider: str, claims: dict | None = None, header: dict | None = None, sign: str = "jwks",
              kid: str | None = None, raw_claims: str | None = None, raw_header: str | None = None) -> str:
        """A token like ``mint`` makes, with the knobs an attacker has. ``sign``: ``jwks`` (the
        key named ``kid``, default the first), ``foreign`` (a fresh key that is in no JWKS, header
        kid unchanged), ``none`` (``alg: none``, empty signature), ``hs256-public-key`` (HS256
        keyed with the PEM of the JWKS key's public half: the classic algorithm confusion).
        ``raw_claims``/``raw_header`` replace the JSON text verbatim (duplicate members)."""
        key = self.key_by_kid(provider, kid) if kid else self.keys_of(provider)[0]
        hdr = {"alg": "RS256", "kid": key.kid}
        if provider in ("google", "firebase"):
            hdr["typ"] = "JWT"
        if sign == "none":
            hdr["alg"] = "none"
        elif sign == "hs256-public-key":
            hdr["alg"] = "HS256"
        hdr.update(header or {})
        header_text = raw_header if raw_header is not None else json.dumps(hdr, separators=(",", ":"))
        claims_text = raw_claims if raw_claims is not None else json.dumps(claims or {}, separators=(",", ":"))
        signing_input = f"{b64url(header_text.encode())}.{b64url(claims_text.encode())}".encode()
        if sign == "jwks":
            sig = key.sign(signing_input)
        elif sign == "foreign":
            sig = SigningKey("foreign").sign(signing_input)
        elif sign == "none":
            sig = b""
        elif sign == "hs256-public-key":
            pem = key.private_key.public_key().public_bytes(serialization.Encoding.PEM,
                                                            serialization.PublicFormat.SubjectPublicKeyInfo)
            sig = hmac.new(pem, signing_input, hashlib.sha256).digest()
        else:
            raise ValueError(f"unknown sign mode {sign}")
        return f"{signing_input.decode()}.{b64url(sig)}"

    def apple_notification(self, sub: str, event_type: str, jti: str | None = None, now: int | None = None,
                           events_as: str = "string", aud: str = APPLE_AUDIENCE, sign: str = "jwks", **extra) -> str:
        """A Sign in with Apple server-to-server notification's `payload`, as Apple signs it: iss,
        aud, iat, jti, and `events` (a JSON string as Apple sends it, or an object)."""
        now = int(now if now is not None else time.time())
        event = {"type": event_type, "sub": sub, "event_time": now * 1000 if events_as == "ms" else now}
        if event_type.startswith("email-"):
            event.update({"email": f"{sub[:8]}@privaterelay.appleid.com", "is_private_email": "true"})
        claims = {"iss": APPLE_ISSUER, "aud": aud, "iat": now, "jti": jti or uuid.uuid4().hex,
                  "events": event if events_as == "object" else json.dumps(event, separators=(",", ":"))}
        claims.update(extra)
        return self.forge("apple", claims, sign=sign)

    def apple_token(self, sub: str, **kw) -> str:
        return self.mint("apple", self.apple_claims(sub, **kw))

    def google_token(self, sub: str, **kw) -> str:
        return self.mint("google", self.google_claims(sub, **kw))

    def firebase_token(self, sub: str, **kw) -> str:
        return self.mint("firebase", self.firebase_claims(sub, **kw))
