"""What an operator sees (docs/API.md, "Operations"; issue 14): one CloudWatch embedded-metric-format
record per invocation, dedicated counts (sign-ups, refresh-token reuse, deletions), and one audit
line per account change that names the account's UUID and never a token, an email or a `sub`.
Through the real executables under the emulator against moto. PYTEST_DONT_REWRITE."""
import json

from service_support import apple_sub, google_sub, ok, refused


def records(text: str, kind: str) -> list[dict]:
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


def test_every_invocation_writes_one_emf_record(svc):
    signin = svc.start("auth-signin", METRICS_NAMESPACE="PhotoBackup/Signin")
    sub = apple_sub()
    data = ok(signin.invoke({"provider": "apple", "idToken": svc.idp.apple_token(sub)}))
    refused(signin.invoke({"provider": "apple", "idToken": "x.y.z"}), "INVALID_TOKEN", "a bad token")
    signin.invoke_raw(b"not json")
    emf = records(signin.logs(), "_aws")
    assert len(emf) == 3, f"{len(emf)} EMF records for 3 invocations"
    first, second, third = emf
    directive = first["_aws"]["CloudWatchMetrics"][0]
    assert directive["Namespace"] == "PhotoBackup/Signin"
    assert directive["Dimensions"] == [["Function", "Operation"], []]
    names = {m["Name"] for m in directive["Metrics"]}
    assert {"Invocations", "Duration", "UpstreamRequests", "UpstreamRetries", "ReuseDetected", "SignUps",
            "Deletions", "PurchaseClaims", "Unclassified", "Refusals"} <= names
    assert all(name in first for name in names), "every declared metric has a value"
    assert (first["Function"], first["Operation"], first["Outcome"], first["SignUps"]) == ("auth-signin", "signin", "success", 1)
    assert first["UpstreamRequests"] >= 5 and first["Duration"] > 0
    assert (second["Outcome"], second["ErrorCode"], second["Refusals"]) == ("refused", "INVALID_TOKEN", 1)
    assert (third["Operation"], third["ErrorCode"]) == ("invalid", "INVALID_REQUEST")
    text = signin.logs()
    assert sub not in text and data["refreshToken"] not in text and data["user"]["email"] not in text


def test_reuse_is_counted_and_account_changes_are_audited(svc):
    refresh = svc.start("auth-refresh", REFRESH_REUSE_GRACE_SECONDS=0)
    sub = apple_sub()
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))
    first = data["refreshToken"]
    ok(refresh.invoke({"refreshToken": first}))
    refused(refresh.invoke({"refreshToken": first}), "SESSION_INVALID", "the replaced token again")
    emf = records(refresh.logs(), "_aws")
    assert [r["ReuseDetected"] for r in emf] == [0, 1], f"reuse counts {[r['ReuseDetected'] for r in emf]}"

    uuid = data["user"]["serviceUserID"]
    fresh = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signin"))["refreshToken"]
    g = google_sub()
    ok(svc.link(refreshToken=fresh, provider="google", idToken=svc.idp.google_token(g)))
    ok(svc.link(refreshToken=fresh, action="unlink", provider="google"))
    ok(svc.link(refreshToken=fresh, action="delete"))
    audits = [r["audit"] for r in records(svc.logs(), "audit")]
    mine = [(a["operation"], a["provider"], a["outcome"]) for a in audits if a["serviceUserID"] == uuid]
    assert mine == [("signup", "apple", "created"), ("link", "google", "linked"), ("unlink", "google", "unlinked"),
                    ("delete", None, "purge complete")], f"audit lines {mine}"
    link_emf = records(svc.fn("auth-link").logs(), "_aws")
    assert [r["Deletions"] for r in link_emf][-1] == 1
    text = svc.logs()
    assert sub not in text and g not in text and fresh not in text, "a sub or a token reached the log"
