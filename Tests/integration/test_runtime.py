"""The Lambda runtime loop (Sources/LambdaRuntime) run as the real built executables.

Most tests run `lambda-probe` (a test-only function: echo / context / throw / big) and
`auth-signin` under the official Runtime Interface Emulator. What the emulator cannot do is done
by a scripted stub Runtime API (runtime_stub.py): a 500 from `next`, a dropped connection, and
the headers the emulator never sends (trace id: the RIE shipped in aws-sam-cli reads the
caller's X-Amzn-Trace-Id but does not pass it on as Lambda-Runtime-Trace-Id; Cognito identity).
"""
import base64
import json
import re
import time

import pytest

from conftest import executable
from runtime_stub import Drop, Fail, Invocation, RuntimeStub

ISO_MS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
TRACE = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"


def context_of(emu, **kw) -> dict:
    return emu.invoke({"mode": "context"}, **kw)


# ---- under the official emulator -------------------------------------------------------------

def test_auth_signin_without_configuration_is_an_init_error(emulator):
    emu = emulator("auth-signin")
    status, body = emu.invoke_raw(b"{}")
    assert status == 502
    assert json.loads(body) == {"errorType": "Runtime.InvalidConfiguration", "errorMessage": "IDENTITY_BUCKET is required", "stackTrace": []}


def test_good_event_is_answered_verbatim(emulator):
    emu = emulator("lambda-probe")
    event = {"mode": "echo", "text": "grüß dich", "n": [1, 2.5, None, True], "nested": {"a": {"b": []}}}
    status, body = emu.invoke_raw(json.dumps(event).encode())
    assert status == 200
    assert json.loads(body) == event


# The contract's required configuration; nothing listens at the endpoint, and bad input must be
# answered without any network call.
OFFLINE_CONFIG = {"IDENTITY_BUCKET": "signin-identities-test", "USER_ROLE_ARN": "arn:aws:iam::123456789012:role/user-access",
                  "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIAOFFLINEOFFLINE00", "AWS_SECRET_ACCESS_KEY": "offline-not-a-secret",
                  "AWS_ENDPOINT_URL": "http://127.0.0.1:9", "APPLE_AUDIENCES": "com.example.app",
                  "APPLE_JWKS_URL": "http://127.0.0.1:9/keys"}


def test_auth_signin_bad_json_is_an_invalid_request_envelope(emulator):
    emu = emulator("auth-signin", env=OFFLINE_CONFIG)
    for payload in (b"{not json", b'{"provider": "apple", "provider": "google"}', b"\xff\xfe"):
        status, body = emu.invoke_raw(payload)
        assert status == 200, body
        answer = json.loads(body)
        assert answer["success"] is False
        assert answer["error"]["code"] == "INVALID_REQUEST"
        assert isinstance(answer["error"]["message"], str) and answer["error"]["message"]
        assert UUID.match(answer["meta"]["requestId"]), answer["meta"]
        assert ISO_MS.match(answer["meta"]["timestamp"]) or answer["meta"]["timestamp"].endswith("Z")
        assert "errorType" not in answer  # a normal response, not the error endpoint


def logs_once(emu, ready, seconds: float = 5.0) -> str:
    """The emulator's log once `ready(log)` holds (at most `seconds`): the runtime writes an
    invocation's line after posting its answer, so a caller may read the log before it is there."""
    deadline = time.monotonic() + seconds
    log = emu.logs()
    while not ready(log) and time.monotonic() < deadline:
        time.sleep(0.05)
        log = emu.logs()
    return log


def test_throwing_handler_is_reported_and_the_process_keeps_serving(emulator):
    emu = emulator("lambda-probe")
    before = context_of(emu)
    status, body = emu.invoke_raw(b'{"mode":"throw"}')
    assert status == 200  # the RIE answers a function error with 200 and the error document
    assert json.loads(body) == {"errorType": "Probe.Deliberate", "errorMessage": "the probe was asked to fail", "stackTrace": []}
    after = context_of(emu)
    assert after["pid"] == before["pid"]
    assert after["invocations"] == before["invocations"] + 2
    assert "outcome=error" in emu.logs() and "errorType=Probe.Deliberate" in emu.logs()


def test_init_error_is_posted_and_the_caller_gets_502(emulator):
    emu = emulator("lambda-probe", {"PROBE_INIT_FAIL": "1"})
    status, body = emu.invoke_raw(b"{}")
    # The RIE answers 502 with the document the runtime posted to /runtime/init/error: the
    # errorType/errorMessage below exist nowhere else, so their presence proves the post.
    assert status == 502
    assert json.loads(body) == {"errorType": "Probe.InitFailure", "errorMessage": "PROBE_INIT_FAIL is set", "stackTrace": []}
    log = logs_once(emu, lambda text: "Init failed" in text)
    assert "FATAL init failed errorType=Probe.InitFailure" in log
    assert "Init failed" in log and "exit status 1" in log  # the emulator saw the process exit 1


def test_deadline_and_function_arn_reach_the_handler(emulator):
    emu = emulator("lambda-probe", {"AWS_LAMBDA_FUNCTION_NAME": "probe-fn", "AWS_LAMBDA_FUNCTION_TIMEOUT": "7"})
    sent = int(time.time() * 1000)
    ctx = context_of(emu)
    assert UUID.match(ctx["requestId"])
    assert ctx["functionArn"].endswith(":function:probe-fn")
    assert 0 < ctx["remainingMs"] <= 7000
    assert sent + 5000 <= ctx["deadlineMs"] <= sent + 7000 + 1000
    # The RIE sends no Lambda-Runtime-Trace-Id even when the caller sends X-Amzn-Trace-Id (checked
    # against aws-sam-cli's RIE); without one the runtime must leave _X_AMZN_TRACE_ID unset.
    ctx = context_of(emu, headers={"X-Amzn-Trace-Id": TRACE})
    assert ctx["traceId"] is None and ctx["envTraceId"] is None
    ctx = context_of(emu, headers={"X-Amz-Client-Context": base64.b64encode(b'{"client":{"app":"x"}}').decode()})
    assert json.loads(ctx["clientContext"]) == {"client": {"app": "x"}}


def test_many_invocations_in_one_process(emulator):
    emu = emulator("lambda-probe")
    first = context_of(emu)
    ids = {first["requestId"]}
    for n in range(2, 201):
        if n % 50 == 0:
            ctx = context_of(emu)
            assert ctx["pid"] == first["pid"] and ctx["invocations"] == n
            ids.add(ctx["requestId"])
        else:
            assert emu.invoke({"mode": "echo", "n": n}) == {"mode": "echo", "n": n}
    assert len(ids) == 5
    assert logs_once(emu, lambda log: log.count("outcome=ok") >= 200).count("outcome=ok") == 200


def test_response_over_6_mib_becomes_an_error_the_caller_sees(emulator):
    emu = emulator("lambda-probe")
    status, body = emu.invoke_raw(b'{"mode":"big","bytes":7000000}')
    assert status == 200
    answer = json.loads(body)
    assert answer["errorType"] == "Function.ResponseSizeTooLarge"
    assert "7000000" in answer["errorMessage"] and "6291456" in answer["errorMessage"]
    status, body = emu.invoke_raw(b'{"mode":"big","bytes":6291456}')  # exactly the limit: delivered
    assert status == 200 and len(body) == 6291456
    assert emu.invoke({"mode": "echo"}) == {"mode": "echo"}  # still serving


def _json_lines(text: str) -> list[dict]:
    """The function's own lines in the emulator log (the RIE adds START/END/REPORT and its own)."""
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_json_log_format(emulator):
    emu = emulator("lambda-probe", {"AWS_LAMBDA_LOG_FORMAT": "JSON"})
    ok = context_of(emu)
    emu.invoke_raw(b'{"mode":"throw"}')
    lines = _json_lines(logs_once(emu, lambda log: len(_json_lines(log)) >= 2))
    assert len(lines) == 2, emu.logs()
    for line in lines:
        assert ISO_MS.match(line["timestamp"]), line
        assert line["level"] in ("INFO", "ERROR") and line["message"] == "invocation"
        assert UUID.match(line["requestId"])
        assert isinstance(line["durationMs"], (int, float))
    assert lines[0]["requestId"] == ok["requestId"] and lines[0]["outcome"] == "ok" and lines[0]["level"] == "INFO"
    assert lines[1]["level"] == "ERROR" and lines[1]["errorType"] == "Probe.Deliberate"
    assert not [l for l in emu.logs().splitlines() if re.match(r"^\d{4}-\d\d-\d\dT", l)]  # no text lines


def test_log_level_is_honoured(emulator):
    emu = emulator("lambda-probe", {"AWS_LAMBDA_LOG_FORMAT": "JSON", "AWS_LAMBDA_LOG_LEVEL": "WARN"})
    for _ in range(3):
        context_of(emu)
    emu.invoke_raw(b'{"mode":"throw"}')
    lines = _json_lines(logs_once(emu, lambda log: any(l.get("level") == "ERROR" for l in _json_lines(log))))
    assert [l["level"] for l in lines] == ["ERROR"], emu.logs()


def test_text_log_line_per_invocation(emulator):
    emu = emulator("lambda-probe")
    ctx = context_of(emu)
    log = logs_once(emu, lambda text: "invocation outcome=" in text)
    mine = [l for l in log.splitlines() if re.match(r"^\d{4}-\d\d-\d\dT", l)]
    assert len(mine) == 1
    assert re.match(r"^\S+Z INFO " + ctx["requestId"] + r" invocation outcome=ok durationMs=\d+\.\d\d$", mine[0]), mine


# ---- against the stub Runtime API ------------------------------------------------------------

def test_every_header_reaches_the_handler_and_trace_id_is_per_invocation():
    cognito = '{"cognitoIdentityId":"us-east-1:abc","cognitoIdentityPoolId":"us-east-1:pool"}'
    client_context = '{"client":{"installation_id":"i-1"},"custom":{"k":"v"}}'
    script = [
        Invocation("req-1", b'{"mode":"context"}', {"Lambda-Runtime-Trace-Id": TRACE, "Lambda-Runtime-Client-Context": client_context,
                                                     "Lambda-Runtime-Cognito-Identity": cognito}),
        Invocation("req-2", b'{"mode":"context"}'),  # no trace id: the previous one must not linger
        Fail(500),
    ]
    with RuntimeStub(script) as stub:
        done = stub.run(executable("lambda-probe"), {"PATH": "/usr/bin:/bin"})
    assert done.returncode != 0  # 500 from next: log and exit non-zero
    assert b"runtime API failure" in done.stderr and b"HTTP 500" in done.stderr
    first = stub.json_post("/invocation/req-1/response")
    assert first["requestId"] == "req-1"
    assert first["traceId"] == TRACE and first["envTraceId"] == TRACE
    assert first["clientContext"] == client_context
    assert first["cognitoIdentity"] == cognito
    assert first["functionArn"] == "arn:aws:lambda:us-east-1:000000000000:function:stub"
    assert 3000 < first["remainingMs"] <= 5000  # deadline = now + 5 s when the stub answered
    second = stub.json_post("/invocation/req-2/response")
    assert second["traceId"] is None and second["envTraceId"] is None
    assert second["clientContext"] is None and second["cognitoIdentity"] is None
    assert stub.gets == 3


def test_error_post_shape_and_header():
    with RuntimeStub([Invocation("req-t", b'{"mode":"throw"}'), Invocation("req-e", b'{"x":1}')]) as stub:
        done = stub.run(executable("lambda-probe"), {"PATH": "/usr/bin:/bin"})
    assert done.returncode != 0
    err = stub.post("/invocation/req-t/error")
    assert err["headers"]["lambda-runtime-function-error-type"] == "Probe.Deliberate"
    assert json.loads(err["body"]) == {"errorType": "Probe.Deliberate", "errorMessage": "the probe was asked to fail", "stackTrace": []}
    assert stub.post("/invocation/req-e/response")["body"] == b'{"x":1}'  # the loop went on


def test_init_error_post_shape_and_exit_code():
    with RuntimeStub([Invocation("never")]) as stub:
        done = stub.run(executable("lambda-probe"), {"PATH": "/usr/bin:/bin", "PROBE_INIT_FAIL": "1"})
    assert done.returncode == 1
    assert stub.gets == 0  # init error comes before the first next
    err = stub.post("/runtime/init/error")
    assert err["headers"]["lambda-runtime-function-error-type"] == "Probe.InitFailure"
    assert json.loads(err["body"]) == {"errorType": "Probe.InitFailure", "errorMessage": "PROBE_INIT_FAIL is set", "stackTrace": []}


def test_dropped_connection_exits_non_zero():
    # libcurl retries a request once on a fresh connection when a reused one dies, so the stub
    # drops twice: the second drop is on a fresh connection and must end the process.
    with RuntimeStub([Invocation("req-1", b'{"a":1}'), Drop(), Drop()]) as stub:
        done = stub.run(executable("lambda-probe"), {"PATH": "/usr/bin:/bin"})
    assert done.returncode != 0
    assert stub.post("/invocation/req-1/response")["body"] == b'{"a":1}'
    assert b"runtime API failure" in done.stderr and b"GET next failed" in done.stderr, done.stderr
    assert stub.gets == 3


def test_unreachable_runtime_api_exits_non_zero():
    from signin_tools.standins import free_port
    import subprocess
    done = subprocess.run([executable("lambda-probe")], env={"PATH": "/usr/bin:/bin", "AWS_LAMBDA_RUNTIME_API": f"127.0.0.1:{free_port()}"},
                          capture_output=True, timeout=20)
    assert done.returncode != 0
    assert b"runtime API failure" in done.stderr


def test_missing_runtime_api_setting_exits_non_zero():
    import subprocess
    done = subprocess.run([executable("lambda-probe")], env={"PATH": "/usr/bin:/bin"}, capture_output=True, timeout=20)
    assert done.returncode != 0
    assert b"AWS_LAMBDA_RUNTIME_API is not set" in done.stderr


def test_emulator_picks_other_ports_when_its_port_is_taken(monkeypatch, tmp_path):
    """CI once lost a run to a port taken between free_port() and the emulator's bind (the
    emulator exits 2); start() picks fresh ports and tries again."""
    import socket

    from signin_tools.standins import ports, rie

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        taken_port = taken.getsockname()[1]
        offered = iter([taken_port, ports.free_port()])
        real_free_port = ports.free_port
        monkeypatch.setattr(rie, "free_port", lambda: next(offered, None) or real_free_port())
        emu = rie.Emulator(executable("lambda-probe"), log_path=str(tmp_path / "rie.log"))
        try:
            emu.start()
            assert emu.port != taken_port
            assert emu.invoke({"mode": "echo", "text": "ok"})["text"] == "ok"
        finally:
            emu.stop()
        assert "address already in use" in emu.logs()
