"""What an operator sees (docs/API.md, "Operations"; issue 14): one CloudWatch embedded-metric-format
record per invocation, dedicated counts (sign-ups, refresh-token reuse, deletions), and one audit
line per account change that names the account's UUID and never a token, an email or a `sub`.
Through the real executables under the emulator against moto. PYTEST_DONT_REWRITE."""
import json

from service_support import log_records, apple_sub, google_sub, ok, refused


def test_every_invocation_writes_one_emf_record(svc):
    signin = svc.start("auth-signin", METRICS_NAMESPACE="PhotoBackup/Signin")
    sub = apple_sub()
    data = ok(signin.invoke({"provider": "apple", "idToken": svc.idp.apple_token(sub)}))
    refused(signin.invoke({"provider": "apple", "idToken": "x.y.z"}), "INVALID_TOKEN", "a bad token")
    signin.invoke_raw(b"not json")
    emf = log_records(signin.logs(), "_aws")
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
    second = ok(refresh.invoke({"refreshToken": first}))["refreshToken"]
    ok(refresh.invoke({"refreshToken": second, "action": "list"}))  # v5: presented, so the old one is reuse
    refused(refresh.invoke({"refreshToken": first}), "SESSION_INVALID", "the replaced token again")
    emf = log_records(refresh.logs(), "_aws")
    counts = [r["ReuseDetected"] for r in emf if "ReuseDetected" in r]
    assert counts[-1] == 1 and sum(counts) == 1, f"reuse counts {counts}"

    uuid = data["user"]["serviceUserID"]
    fresh = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signin"))["refreshToken"]
    g = google_sub()
    ok(svc.link(refreshToken=fresh, provider="google", idToken=svc.idp.google_token(g)))
    ok(svc.link(refreshToken=fresh, action="unlink", provider="google"))
    ok(svc.link(refreshToken=fresh, action="delete"))
    audits = [r["audit"] for r in log_records(svc.logs(), "audit")]
    mine = [(a["operation"], a["provider"], a["outcome"]) for a in audits if a["serviceUserID"] == uuid]
    assert mine == [("signup", "apple", "created"), ("link", "google", "linked"), ("unlink", "google", "unlinked"),
                    ("delete", None, "purge complete")], f"audit lines {mine}"
    link_emf = log_records(svc.fn("auth-link").logs(), "_aws")
    assert [r["Deletions"] for r in link_emf][-1] == 1
    text = svc.logs()
    assert sub not in text and g not in text and fresh not in text, "a sub or a token reached the log"


def test_apples_account_events_are_audited_and_counted_like_the_users_own(svc):
    """Issue 18, defect 7: Apple's account-delete unlinks (Apple beside Google) or deletes (Apple
    only); each writes the audit line `unlink`/`delete` does, and a deletion counts in Deletions."""
    from service_support import url_event, via_url

    def notify(sub: str, kind: str) -> dict:
        status, _, envelope = via_url(svc.fn("auth-link"), url_event(json.dumps({"payload": svc.idp.apple_notification(sub, kind)})))
        assert status == 200, envelope
        return envelope["data"]

    both, data = apple_sub(), None
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(both)))
    kept = data["user"]["serviceUserID"]
    ok(svc.link(refreshToken=data["refreshToken"], provider="google", idToken=svc.idp.google_token(google_sub())))
    assert notify(both, "account-delete")["status"] == "processed"
    only = apple_sub()
    gone = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(only)))["user"]["serviceUserID"]
    assert notify(only, "account-delete")["status"] == "processed"
    assert notify(only, "email-disabled")["status"] == "unknownIdentity"
    audits = [r["audit"] for r in log_records(svc.fn("auth-link").logs(), "audit")]
    got = [(a["operation"], a["serviceUserID"], a["provider"], a["outcome"]) for a in audits]
    assert got == [("link", kept, "google", "linked"), ("unlink", kept, "apple", "unlinked"),
                   ("delete", gone, None, "purge complete")], f"audit lines {got}"
    emf = [r for r in log_records(svc.fn("auth-link").logs(), "_aws") if r["Operation"] == "appleAccountEvent"]
    assert [r["Deletions"] for r in emf] == [0, 1, 0], [r["Deletions"] for r in emf]
    text = svc.fn("auth-link").logs()
    assert both not in text and only not in text, "an Apple sub reached the log"
