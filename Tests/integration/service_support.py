"""Support for the end-to-end tests of the three functions: one deployment's configuration
(moto + test IdP), a factory of function emulators, bucket snapshots and log scanning."""
import base64
import concurrent.futures
import json
import uuid as uuidlib

from conftest import executable
from signin_tools.standins import Emulator


class Service:
    def __init__(self, moto, idp, tmp_path):
        self.moto = moto
        self.idp = idp
        self.tmp_path = tmp_path
        self.emulators: list[Emulator] = []
        self._default: dict[str, Emulator] = {}

    def env(self, **overrides) -> dict:
        env = {**self.moto.function_env(), **self.idp.function_env(), "AWS_LAMBDA_LOG_LEVEL": "DEBUG"}
        env.update({k: str(v) for k, v in overrides.items()})
        return env

    def start(self, name: str, **overrides) -> Emulator:
        emu = Emulator(executable(name), env={**self.env(**overrides), "AWS_LAMBDA_FUNCTION_NAME": name},
                       log_path=str(self.tmp_path / f"{name}-{len(self.emulators)}.log"))
        self.emulators.append(emu)
        return emu.start()

    def fn(self, name: str) -> Emulator:
        if name not in self._default:
            self._default[name] = self.start(name)
        return self._default[name]

    def signin(self, **event) -> dict:
        return self.fn("auth-signin").invoke(event)

    def refresh(self, **event) -> dict:
        return self.fn("auth-refresh").invoke(event)

    def link(self, **event) -> dict:
        return self.fn("auth-link").invoke(event)

    def parallel(self, name: str, events: list, **overrides) -> list:
        """Invokes `name` once per event, all at once, each on its own emulator (one emulator
        serves one invocation at a time, as one Lambda execution environment does)."""
        emus = [self.start(name, **overrides) for _ in events]
        with concurrent.futures.ThreadPoolExecutor(len(events)) as pool:
            return list(pool.map(lambda pair: pair[0].invoke(pair[1], timeout=60), zip(emus, events)))

    def snapshot(self) -> dict:
        """Every key in the bucket with its ETag."""
        s3 = self.moto.s3()
        out = {}
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=self.moto.bucket):
            for item in page.get("Contents", []):
                out[item["Key"]] = item["ETag"]
        return out

    def read_json(self, key: str) -> dict:
        return json.loads(self.moto.s3().get_object(Bucket=self.moto.bucket, Key=key)["Body"].read())

    def read_object(self, key: str, bucket: str | None = None) -> dict | None:
        """The object at `key` as {body, etag, metadata, versionId}, or None when there is none."""
        s3 = self.moto.s3()
        try:
            got = s3.get_object(Bucket=bucket or self.moto.bucket, Key=key)
        except s3.exceptions.NoSuchKey:
            return None
        return {"body": got["Body"].read(), "etag": got["ETag"], "metadata": got.get("Metadata", {}), "versionId": got.get("VersionId")}

    def logs(self) -> str:
        return "\n".join(e.logs() for e in self.emulators)

    def stop(self) -> None:
        for e in self.emulators:
            e.stop()


def apple_sub() -> str:
    return f"001234.{uuidlib.uuid4().hex}.0001"


def google_sub() -> str:
    return str(100000000000000000000 + uuidlib.uuid4().int % 10**20)


def ok(answer: dict) -> dict:
    assert answer.get("success") is True, f"expected success, got {answer.get('error')}"
    return answer["data"]


def refused(answer: dict, expected: str, what: str) -> None:
    """An error envelope with `expected`; the message names codes only, never a token."""
    got = answer["error"]["code"] if answer.get("success") is False else "success"
    assert got == expected, f"{what}: expected {expected}, got {got}"


def code(answer: dict) -> str:
    assert answer.get("success") is False, "expected an error envelope"
    return answer["error"]["code"]


# -- refresh tokens (docs/decisions.md: `rt1_` + base64url, unpadded, of uuid 16 ‖ session id 16 ‖ secret 32) --

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

def url_event(body: str | None, base64_encoded: bool = False) -> dict:
    """What a Lambda Function URL sends for `POST /` (HTTP payload format 2.0)."""
    return {
        "version": "2.0", "routeKey": "$default", "rawPath": "/", "rawQueryString": "",
        "headers": {"content-type": "application/json", "host": "abc123.lambda-url.us-east-1.on.aws",
                    "user-agent": "SigninApp/1.0", "x-forwarded-proto": "https"},
        "requestContext": {
            "accountId": "anonymous", "apiId": "abc123", "domainName": "abc123.lambda-url.us-east-1.on.aws",
            "domainPrefix": "abc123", "requestId": str(uuidlib.uuid4()), "routeKey": "$default", "stage": "$default",
            "time": "01/Jan/2025:00:00:00 +0000", "timeEpoch": 1735689600000,
            "http": {"method": "POST", "path": "/", "protocol": "HTTP/1.1", "sourceIp": "192.0.2.10", "userAgent": "SigninApp/1.0"},
        },
        "body": body,
        "isBase64Encoded": base64_encoded,
    }


def via_url(emu, event: dict) -> tuple[int, dict, dict]:
    """Invokes with a Function URL event; returns (statusCode, headers, envelope)."""
    answer = emu.invoke(event)
    assert set(answer) >= {"statusCode", "headers", "body"}, f"not a Function URL answer: {str(answer)[:300]}"
    assert answer.get("isBase64Encoded", False) is False
    assert answer["headers"].get("content-type") == "application/json"
    envelope = json.loads(answer["body"])
    assert set(envelope) == {"success", "data", "meta"} or set(envelope) == {"success", "error", "meta"}
    assert envelope["meta"]["requestId"]
    return answer["statusCode"], answer["headers"], envelope
