"""Support for the end-to-end tests of the three functions: one deployment's configuration
(moto + test IdP), a factory of function emulators, bucket snapshots and log scanning."""
import concurrent.futures
import json

from conftest import executable
from signin_tools.events import account_of, apple_sub, forged, google_sub, scheduled_event, session_id_of, url_event  # noqa: F401 (re-exported)
from signin_tools.standins import Emulator
from signin_tools.standins.local import SCHEDULED, is_scheduled


class Service:
    def __init__(self, moto, idp, tmp_path, risc=None):
        self.moto = moto
        self.idp = idp
        self.risc = risc
        self.tmp_path = tmp_path
        self.emulators: list[Emulator] = []
        self._default: dict[str, Emulator] = {}

    def env(self, name: str, **overrides) -> dict:
        """`name`'s configuration: its own moto identity, holding its role's grants from template.yaml."""
        env = {**self.moto.function_env(name), **self.idp.function_env(), "AWS_LAMBDA_LOG_LEVEL": "DEBUG",
               **(self.risc.function_env() if self.risc else {})}
        env.update({k: str(v) for k, v in overrides.items()})
        return env

    def start(self, name: str, **overrides) -> Emulator:
        """`name` is a function, or auth-link through the schedule's alias (SCHEDULED)."""
        base = name.split(":")[0]
        emu = Emulator(executable(base), env={**self.env(base, **overrides), "AWS_LAMBDA_FUNCTION_NAME": name},
                       log_path=str(self.tmp_path / f"{name.replace(':', '-')}-{len(self.emulators)}.log"))
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
        """auth-link; a scheduled event goes the schedule's way (the `scheduled` alias), as on AWS."""
        return self.fn(SCHEDULED if is_scheduled(event) else "auth-link").invoke(event)

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


def log_records(text: str, kind: str) -> list[dict]:
    """The JSON records of a function's log that carry `kind` (`_aws`: the metric records, `audit`:
    the audit lines)."""
    out = []
    for line in text.splitlines():
        start = line.find("{")
        if start < 0:
            continue
        try:
            value = json.loads(line[start:])
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and kind in value:
            out.append(value)
    return out
