"""The refresh-token trail scripts/serve's server keeps (fingerprints, arrival times), read the way
CONTRACT.md's "The app's clients" asks: no token presented after its grace, nothing refused or
revoked (v4), or no token presented after its successor was presented (v5). Shared by
test_client.py and test_client_rules.py."""


def trail_text(trail: list[dict]) -> str:
    return "\n".join(f"  {t['arrived']:>9.2f} {t['function']:<12} {t['action']:<8} presented {t['presented']}"
                     f" -> {t['status']} issued {t['issued']}{'' if t['delivered'] else ' (answer not read)'}"
                     for t in trail)


def check_rules(trail: list[dict], grace: float) -> None:
    """Every later presentation of a token arrived within `grace` seconds of the first refresh that
    rotated it out (an upper bound of the time since the rotation), and no answer refused a token
    (401/403: SESSION_INVALID, a revoked session)."""
    rotated_at: dict[str, float] = {}
    for t in trail:
        if t["presented"] in rotated_at:
            late = t["arrived"] - rotated_at[t["presented"]]
            assert late <= grace, f"{t['presented']} presented {late:.1f} s after it was rotated out\n{trail_text(trail)}"
        if t["action"] == "refresh" and t["status"] == 200:
            rotated_at.setdefault(t["presented"], t["arrived"])
    refused = [t for t in trail if t["status"] in (401, 403)]
    assert refused == [], f"refused or revoked:\n{trail_text(trail)}"


def check_v5_rules(trail: list[dict]) -> None:
    """Contract v5's client rule, read off the trail in arrival order: a token is never presented
    once a token issued for it (its successor) has been presented, however late (the server
    accepts the rotated-out token until then), and no answer refused a token (401/403)."""
    ordered = sorted(trail, key=lambda t: t["arrived"])
    predecessor: dict[str, str] = {}
    retired: set[str] = set()
    for t in ordered:
        presented = t["presented"]
        if presented is not None:
            assert presented not in retired, f"{presented} presented after its successor\n{trail_text(ordered)}"
            if presented in predecessor:
                retired.add(predecessor[presented])
        if t["action"] == "refresh" and t["status"] == 200 and t["issued"] and presented:
            predecessor[t["issued"]] = presented
    refused = [t for t in trail if t["status"] in (401, 403)]
    assert refused == [], f"refused or revoked:\n{trail_text(ordered)}"
