"""A stand-in for the App Store Server API's Get All Subscription Statuses
(``GET /inApps/v1/subscriptions/{transactionId}``) on loopback, checking each request's bearer
token the way Apple does ("Generating JSON Web Tokens for API requests"): an ES256 JWT signed with
the In-App Purchase key this server made (Python ``cryptography``, independent of the project's
Swift), header ``alg`` ES256, ``kid`` and ``typ`` JWT; claims ``iss`` (issuer id), ``iat``,
``exp`` (at most 60 minutes after ``iat``, not passed), ``aud`` ``appstoreconnect-v1`` and
``bid`` (the bundle id). A token that fails any check is answered 401 with no body, as Apple does.

Answers are ``StatusResponse`` objects whose signed transaction and renewal info are signed at
request time by the test PKI (``appstore_pki.AppStorePKI``), so the function verifies them as it
verifies any signed transaction. Knobs: the status of each purchase, failing or hanging requests."""
import base64
import json
import threading
import time
import uuid

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from .appstore_pki import AppStorePKI
from .loopback import LoopbackHTTPServer, QuietHandler

AUDIENCE = "appstoreconnect-v1"
MAX_TOKEN_LIFETIME = 3600  # Apple refuses a token whose exp is more than 60 minutes after iat
HANG_SECONDS = 30  # a "hanging" outage holds each request at most this long
PATH = "/inApps/v1/subscriptions/"
DAY_MS = 86_400_000
# Apple's status codes (lastTransactionsItem.status).
ACTIVE, EXPIRED, BILLING_RETRY, GRACE_PERIOD, REVOKED = 1, 2, 3, 4, 5


def _b64url_decode(text: str) -> bytes:
    if "=" in text or not text:
        raise ValueError("not unpadded base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class AppStoreServerAPI(LoopbackHTTPServer):
    """Get All Subscription Statuses on 127.0.0.1 (port 0: a free one)."""

    def __init__(self, pki: AppStorePKI, bundle_id: str = AppStorePKI.BUNDLE_ID, key_id: str = "APIKEY1234",
                 issuer_id: str | None = None):
        self.pki = pki
        self.bundle_id = bundle_id
        self.key_id = key_id
        self.issuer_id = issuer_id or str(uuid.uuid4())
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.purchases = {}  # originalTransactionId -> (status, transaction claims, renewal claims)
        self.requests = []  # (transactionId, None or why the token was refused), in arrival order
        self._fail = []  # statuses for the next requests
        self._down = None  # None, "503" or "hang"
        self._stopping = threading.Event()
        self._lock = threading.Lock()

    # -- configuration --------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def private_key_pem(self) -> str:
        return self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()).decode()

    def function_env(self) -> dict:
        return {"APPSTORE_API_KEY_ID": self.key_id, "APPSTORE_API_ISSUER_ID": self.issuer_id,
                "APPSTORE_API_PRIVATE_KEY": self.private_key_pem(), "APPSTORE_API_URL": self.url}

    # -- knobs ----------------------------------------------------------------------------

    def set_status(self, otid: str, status: int, renewal: dict | None = None, **transaction) -> None:
        """What Apple says about purchase ``otid`` from now on: the status code and the signed
        transaction's claims (merged over a 29-day period signed at the request)."""
        with self._lock:
            self.purchases[otid] = (status, transaction, renewal or {})

    def fail_next(self, n: int, status: int = 503) -> None:
        """The next ``n`` requests answer ``status`` before anything is checked."""
        with self._lock:
            self._fail = [status] * n

    def down(self, hang: bool = False) -> None:
        """An outage until ``up()``: every request answers 503, or (``hang``) gets no answer for up
        to 30 s and then 503, so the client's timeouts and deadline are what end it."""
        self._down = "hang" if hang else "503"

    def up(self) -> None:
        self._down = None

    # -- Apple's checks -------------------------------------------------------------------

    def token_problem(self, authorization: str | None) -> str | None:
        """Why Apple would refuse this ``Authorization`` header (None: it would not)."""
        try:
            if not authorization or not authorization.startswith("Bearer "):
                return "no bearer token"
            parts = authorization[len("Bearer "):].split(".")
            if len(parts) != 3:
                return "not a JWS"
            header = json.loads(_b64url_decode(parts[0]))
            claims = json.loads(_b64url_decode(parts[1]))
            signature = _b64url_decode(parts[2])
            if header.get("alg") != "ES256" or header.get("kid") != self.key_id or header.get("typ") != "JWT":
                return "header"
            if len(signature) != 64:
                return "signature shape"
            der = utils.encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
            self.key.public_key().verify(der, f"{parts[0]}.{parts[1]}".encode(), ec.ECDSA(hashes.SHA256()))
            iat, exp, now = claims.get("iat"), claims.get("exp"), time.time()
            if claims.get("iss") != self.issuer_id:
                return "iss"
            if claims.get("aud") != AUDIENCE:
                return "aud"
            if claims.get("bid") != self.bundle_id:
                return "bid"
            if type(iat) is not int or type(exp) is not int or iat > now + 60 or exp <= now:
                return "iat/exp"
            if exp - iat > MAX_TOKEN_LIFETIME:
                return "exp more than 60 minutes after iat"
            return None
        except InvalidSignature:
            return "signature"
        except (ValueError, AttributeError, TypeError):
            return "malformed"

    def statuses(self, transaction_id: str) -> tuple[int, dict | None]:
        with self._lock:
            entry = self.purchases.get(transaction_id)
        if entry is None:
            return 404, {"errorCode": 4040010, "errorMessage": "Transaction id not found."}
        status, claims, renewal = entry
        now = int(time.time() * 1000)
        transaction = {"originalTransactionId": transaction_id, "transactionId": transaction_id, "signedDate": now,
                       "purchaseDate": now - DAY_MS, "expiresDate": now + 29 * DAY_MS, **claims}
        signed_transaction = self.pki.sign({"kind": "transaction", "claims": transaction, "drop": ["appAccountToken"]})
        signed_renewal = self.pki.sign({"kind": "renewal", "claims": {
            "originalTransactionId": transaction_id, "signedDate": now, **renewal}})
        return 200, {"environment": "Production", "bundleId": self.bundle_id, "appAppleId": AppStorePKI.APP_APPLE_ID,
                     "data": [{"subscriptionGroupIdentifier": "21000001", "lastTransactions": [
                         {"status": status, "originalTransactionId": transaction_id,
                          "signedTransactionInfo": signed_transaction, "signedRenewalInfo": signed_renewal}]}]}

    # -- server ---------------------------------------------------------------------------

    def handler(self):
        api = self

        class Handler(QuietHandler):
            def answer(self, status: int, body: dict | None) -> None:
                data = json.dumps(body).encode() if body is not None else b""
                self.send_response(status)
                if body is not None:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if not self.path.startswith(PATH) or not self.path[len(PATH):].isdigit():
                    self.answer(404, {"errorCode": 4040000, "errorMessage": "Not found."})
                    return
                transaction_id = self.path[len(PATH):]
                with api._lock:
                    failing = api._fail.pop(0) if api._fail else None
                down = api._down  # as it was when the request came (up() does not answer a hung one)
                if down == "hang":
                    api._stopping.wait(HANG_SECONDS)
                if down or failing:
                    with api._lock:
                        api.requests.append((transaction_id, "outage"))
                    try:
                        self.answer(failing or 503, None)
                    except (BrokenPipeError, ConnectionResetError):
                        pass  # the client gave up first, as it should
                    return
                problem = api.token_problem(self.headers.get("Authorization"))
                with api._lock:
                    api.requests.append((transaction_id, problem))
                if problem:
                    self.answer(401, None)
                    return
                self.answer(*api.statuses(transaction_id))

        return Handler

    def stop(self) -> None:
        self._stopping.set()  # releases hanging requests
        super().stop()
