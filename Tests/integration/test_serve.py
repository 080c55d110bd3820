"""scripts/serve's Function URL server: concurrent requests share a bounded pool of emulators (one
invocation per emulator at a time, as one Lambda execution environment), every request is
answered, Function URL answers become HTTP answers, and a path that is no function is a 404."""
import concurrent.futures
import json
import urllib.error
import urllib.request
import uuid

import pytest

from conftest import BUILD_DIR, executable
from signin_tools.serve import FunctionURLServer


@pytest.fixture
def small_pool(moto, idp, tmp_path):
    executable("auth-signin")
    srv = FunctionURLServer(BUILD_DIR, lambda name: {**moto.function_env(name), **idp.function_env()}, tmp_path,
                            pool_size=2).start()
    yield srv
    srv.stop()


def post(url: str, body: bytes, timeout: float = 60) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=body, method="POST", headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_concurrent_requests_share_a_bounded_pool(small_pool, idp):
    url = small_pool.urls()["auth-signin"]
    bodies = [b"{not json"] * 4 + [json.dumps({"provider": "apple", "idToken": idp.apple_token(f"apple-{uuid.uuid4()}")}).encode()
                                   for _ in range(4)]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda b: post(url, b), bodies))
    assert [status for status, _ in answers] == [400] * 4 + [200] * 4
    assert all(envelope["error"]["code"] == "INVALID_REQUEST" for _, envelope in answers[:4])
    assert all(envelope["success"] for _, envelope in answers[4:])
    assert 1 <= len(small_pool.pools["auth-signin"].all) <= 2
    assert small_pool.count("auth-signin", "signin") == 8


def test_a_path_that_is_no_function_is_a_404(small_pool):
    status, body = post(small_pool.base_url + "/auth-nothing", b"{}")
    assert status == 404 and body == {"Message": "Not Found"}
