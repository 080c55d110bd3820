"""The soak (issue 14): N invocations on one warm process of each function, a realistic mix with bad
input, through the official emulator against local moto. Measures the function process itself (the
executable the emulator runs: VmRSS, RssAnon and open file descriptors from /proc/<pid>) after
warm-up, at a few points between and at the end, and the latency per window (p50/p99 of each tenth
of the measured invocations). Used by scripts/bench.d/60-soak (release build, 20,000 each) and by
Tests/integration/test_soak.py (debug build, 2,000 each; asserts only on leaks).

The mix, per function (every outcome is checked against what the account's state says it must be;
anything else, a non-200 from the emulator, an error-endpoint answer or a restarted process, is
counted as unexpected):
  auth-signin   sign-ins of existing accounts (Apple, or Google once linked), sign-ups, Function URL
                sign-ins, sign-up of an existing identity, sign-in of an unknown one, and bad input:
                garbage / expired / foreign-signed / wrong-audience tokens, unsupported provider,
                malformed JSON, an event over 64 KiB
  auth-refresh  refreshes with rotation, list, sign-out, sign-out of another session, sign-out of the
                others, reuse of a token two rotations old (the session is revoked), and bad input:
                forged and garbage tokens, malformed JSON, oversize events
  auth-link     link and unlink Google, purchase claims (new, restore, another account's), App Store
                notifications (Function URL, signedDate moving forward), Sign in with Apple account
                notifications, account deletion (the pool is recycled: sign-ups replace deleted
                accounts, so moto's bucket stays about the same size), the scheduled run, and bad
                input: forged tokens, invalid purchases, notifications that fail verification,
                malformed JSON, oversize Function URL events
Every loop is bounded: N invocations per function, each with a 30 s timeout, the whole run capped
by `max_seconds`.
"""
import json
import os
import random
import sys
import time
import uuid as uuidlib
from dataclasses import dataclass, field
from pathlib import Path

from ..events import apple_sub, forged, google_sub, scheduled_event, session_id_of, url_event
from ..repo import ROOT
from ..standins import LocalDeployment
from ..standins.local import SCHEDULED
from ..standins.idp import SigningKey
from .stats import pct
from ..standins.process import run_main

FUNCTIONS = ("auth-signin", "auth-refresh", "auth-link")
DAY_MS = 86_400_000


# ------------------------------------------------------------------ the function process (/proc)

def child_pid(parent: int, executable: str) -> int | None:
    """The pid of `executable` running as a child of `parent` (the emulator), or None."""
    target = os.path.realpath(executable)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            if ppid == parent and os.path.realpath(f"/proc/{entry}/exe") == target:
                return int(entry)
        except (OSError, ValueError):
            continue
    return None


def sample(pid: int) -> dict:
    """VmRSS, RssAnon, VmHWM (kB), the number of open file descriptors of `pid`, and how many of
    them are sockets (kept connections come and go with the load; other descriptors do not)."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
                out[name] = int(value.split()[0])
    fds = os.listdir(f"/proc/{pid}/fd")
    out["fds"] = len(fds)
    sockets = 0
    for fd in fds:
        try:
            sockets += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            pass  # closed between the listing and the look
    out["sockets"] = sockets
    return out


# ------------------------------------------------------------------ events

def oversize_direct() -> bytes:
    return json.dumps({"provider": "apple", "idToken": "x" * 100_000}).encode()


def oversize_url() -> bytes:
    return json.dumps(url_event(json.dumps({"signedPayload": "y" * 300_000}))).encode()


MALFORMED = [b"{not json", b'{"provider": "apple", "idToken": "a", "provider": "google"}', b"[1, 2", b"\xff\xfe{}",
             b'{"refreshToken": 12}', b"", b"null", b'"just a string"']


# ------------------------------------------------------------------ the accounts the mix works on

@dataclass
class Session:
    token: str
    provider: str
    stale: str | None = None   # a token two rotations old: presenting it is reuse
    older: str | None = None


@dataclass
class Account:
    uuid: str
    apple: str
    google: str | None = None
    sessions: list = field(default_factory=list)
    purchases: list = field(default_factory=list)  # original transaction ids this account owns
    notified_ms: dict = field(default_factory=dict)  # otid -> last signedDate sent


class Unexpected(Exception):
    pass


class Mix:
    """The three drivers' shared state: a pool of live accounts, and those waiting for deletion."""

    def __init__(self, local: LocalDeployment, seed: int, pool: int = 30, extra_refusals: float = 0.0):
        self.local, self.idp, self.pki = local, local.idp, local.store_pki
        self.rng = random.Random(seed)
        self.pool = pool
        # The share of steps turned into bad input (each function's refusals, which do not reach
        # S3): CI's short soak uses it to stay within its time while every path still runs.
        self.extra_refusals = extra_refusals
        self.accounts: list[Account] = []
        self.doomed: list[Account] = []
        self.outcomes = {name: {} for name in FUNCTIONS}
        self.unexpected = {name: [] for name in FUNCTIONS}
        # A key in no JWKS under the JWKS key's kid (made once: RSA key generation is slow).
        self.foreign = SigningKey(self.idp.keys_of("apple")[0].kid)
        self.otid = 3_000_000_000_000_000 + self.rng.randrange(10**12) * 1000

    # -- invoking

    def call(self, fn: str, payload: bytes, via: str | None = None) -> tuple[dict, float]:
        emu = self.local.emulators[via or fn]
        t = time.perf_counter()
        status, body = emu.invoke_raw(payload, timeout=30)
        ms = (time.perf_counter() - t) * 1000
        if status != 200:
            raise Unexpected(f"emulator HTTP {status}: {body[:200]!r}")
        answer = json.loads(body)
        if "errorType" in answer or "errorMessage" in answer:
            raise Unexpected(f"error endpoint: {answer.get('errorType')}")
        return answer, ms

    def expect(self, fn: str, op: str, payload, want: set, url: bool = False, via: str | None = None):
        """Invokes; the outcome (the data, or the error code) must be in `want` ("ok" for success)."""
        raw = payload if isinstance(payload, bytes) else json.dumps(url_event(json.dumps(payload)) if url else payload).encode()
        answer, ms = self.call(fn, raw, via)
        if url or "statusCode" in answer:
            envelope = json.loads(answer["body"])
        else:
            envelope = answer
        got = "ok" if envelope.get("success") else envelope.get("error", {}).get("code", "?")
        key = f"{op}:{got}"
        self.outcomes[fn][key] = self.outcomes[fn].get(key, 0) + 1
        if got not in want:
            self.unexpected[fn].append(f"{op}: got {got}, wanted {sorted(want)}")
        return (envelope.get("data") if got == "ok" else None), ms

    # -- state helpers

    def pick(self, cond=lambda a: True) -> Account | None:
        candidates = [a for a in self.accounts if cond(a)]
        return self.rng.choice(candidates) if candidates else None

    def draw(self, refusals_from: float) -> float:
        """The step's dice: [refusals_from, 1) picks bad input; `extra_refusals` of steps land there."""
        if self.extra_refusals and self.rng.random() < self.extra_refusals:
            return self.rng.uniform(refusals_from, 1.0)
        return self.rng.random()

    def next_otid(self) -> str:
        self.otid += 1
        return str(self.otid)

    def transaction(self, otid: str, owner: str | None) -> str:
        return self.pki.transaction(otid, owner, transaction_id=self.next_otid())

    # -- auth-signin

    def signin_step(self):
        r = self.draw(0.60)
        fn = "auth-signin"
        if r < 0.40 and self.accounts:
            a = self.pick()
            provider = "google" if a.google and self.rng.random() < 0.3 else "apple"
            token = self.idp.google_token(a.google) if provider == "google" else self.idp.apple_token(a.apple)
            data, ms = self.expect(fn, "signin", {"provider": provider, "idToken": token, "intent": "signin"}, {"ok"})
            if data:
                a.sessions.append(Session(data["refreshToken"], provider))
            return ms
        if r < 0.48 or not self.accounts:
            sub = apple_sub()
            data, ms = self.expect(fn, "signup", {"provider": "apple", "idToken": self.idp.apple_token(sub), "intent": "signup"}, {"ok"})
            if data:
                self.accounts.append(Account(data["user"]["serviceUserID"], sub, sessions=[Session(data["refreshToken"], "apple")]))
                if len(self.accounts) > self.pool:
                    # The oldest account with a working session goes; auth-link deletes it.
                    victim = next((a for a in self.accounts[:-1] if a.sessions), None)
                    if victim:
                        self.accounts.remove(victim)
                        self.doomed.append(victim)
            return ms
        if r < 0.53 and self.accounts:
            a = self.pick()
            data, ms = self.expect(fn, "signin-url", {"provider": "apple", "idToken": self.idp.apple_token(a.apple)}, {"ok"}, url=True)
            if data:
                a.sessions.append(Session(data["refreshToken"], "apple"))
            return ms
        if r < 0.56 and self.accounts:
            a = self.pick()
            return self.expect(fn, "signup-existing", {"provider": "apple", "idToken": self.idp.apple_token(a.apple), "intent": "signup"},
                               {"ACCOUNT_ALREADY_EXISTS"})[1]
        if r < 0.60:
            return self.expect(fn, "signin-unknown", {"provider": "google", "idToken": self.idp.google_token(google_sub()),
                                                      "intent": "signin"}, {"ACCOUNT_NOT_FOUND"})[1]
        if r < 0.75:
            sub = apple_sub()
            kind = self.rng.randrange(5)
            token = [lambda: "eyJhbGciOiJSUzI1NiJ9.e30.c2ln",
                     lambda: self.idp.apple_token(sub)[:-4] + "AAAA",
                     lambda: self.idp.mint("apple", self.idp.apple_claims(sub), key=self.foreign),
                     lambda: self.idp.forge("apple", {**self.idp.apple_claims(sub), "exp": int(time.time()) - 3600}),
                     lambda: self.idp.forge("apple", {**self.idp.apple_claims(sub), "aud": "com.example.other"})][kind]()
            return self.expect(fn, f"bad-token-{kind}", {"provider": "apple", "idToken": token}, {"INVALID_TOKEN", "TOKEN_EXPIRED"})[1]
        if r < 0.80:
            return self.expect(fn, "unsupported", {"provider": "facebook", "idToken": "x.y.z"}, {"UNSUPPORTED_PROVIDER", "INVALID_REQUEST"})[1]
        if r < 0.93:
            return self.expect(fn, "malformed", self.rng.choice(MALFORMED), {"INVALID_REQUEST"})[1]
        return self.expect(fn, "oversize", oversize_direct(), {"INVALID_REQUEST"})[1]

    # -- auth-refresh

    def refresh_step(self):
        fn = "auth-refresh"
        r = self.draw(0.74)
        a = self.pick(lambda a: a.sessions)
        if a is not None and len(a.sessions) >= 4 and r < 0.70:
            s = a.sessions[-1]
            data, ms = self.expect(fn, "signoutOthers", {"refreshToken": s.token, "action": "signoutOthers"}, {"ok"})
            a.sessions = [s]
            return ms
        if a is not None and r < 0.45:
            s = self.rng.choice(a.sessions)
            data, ms = self.expect(fn, "refresh", {"refreshToken": s.token}, {"ok"})
            if data:
                s.stale, s.older, s.token = s.older, s.token, data["refreshToken"]
            return ms
        if a is not None and r < 0.60:
            return self.expect(fn, "list", {"refreshToken": a.sessions[-1].token, "action": "list"}, {"ok"})[1]
        if a is not None and r < 0.66:
            s = a.sessions.pop(self.rng.randrange(len(a.sessions)))
            return self.expect(fn, "signout", {"refreshToken": s.token, "action": "signout"}, {"ok"})[1]
        if a is not None and len(a.sessions) >= 2 and r < 0.71:
            keep, gone = a.sessions[0], a.sessions.pop()
            return self.expect(fn, "signoutSession", {"refreshToken": keep.token, "action": "signoutSession",
                                                      "sessionId": session_id_of(gone.token)}, {"ok"})[1]
        reusable = [(acc, s) for acc in self.accounts for s in acc.sessions if s.stale]
        if reusable and r < 0.74:
            acc, s = self.rng.choice(reusable)
            acc.sessions.remove(s)  # reuse revokes the session
            return self.expect(fn, "reuse", {"refreshToken": s.stale}, {"SESSION_INVALID"})[1]
        if a is not None and r < 0.84:
            action = self.rng.choice(["refresh", "list", "signout", "signoutOthers"])
            return self.expect(fn, f"forged-{action}", {"refreshToken": forged(a.sessions[0].token), "action": action}, {"SESSION_INVALID"})[1]
        if r < 0.89:
            return self.expect(fn, "garbage", {"refreshToken": self.rng.choice(["rt1_garbage", "x", "rt1_" + "A" * 86])},
                               {"SESSION_INVALID", "INVALID_REQUEST"})[1]
        if r < 0.96:
            return self.expect(fn, "malformed", self.rng.choice(MALFORMED), {"INVALID_REQUEST"})[1]
        return self.expect(fn, "oversize", oversize_direct(), {"INVALID_REQUEST"})[1]

    # -- auth-link

    def link_step(self):
        fn = "auth-link"
        r = self.rng.random()  # deletions keep pace with sign-ups whatever the mix
        apple_session = lambda acc: next((s for s in reversed(acc.sessions) if s.provider == "apple"), None)
        if self.doomed and r < 0.5:
            a = self.doomed.pop(0)
            data, ms = self.expect(fn, "delete", {"refreshToken": a.sessions[-1].token, "action": "delete"}, {"ok"})
            if data and data.get("purge") != "complete":
                self.unexpected[fn].append(f"delete: purge {data.get('purge')}")
            return ms
        a = self.pick(lambda acc: apple_session(acc) is not None)
        r = self.draw(0.58)
        if a is not None and not a.google and r < 0.10:
            g = google_sub()
            data, ms = self.expect(fn, "link", {"refreshToken": apple_session(a).token, "provider": "google",
                                                "idToken": self.idp.google_token(g)}, {"ok"})
            if data:
                a.google = g
            return ms
        if a is not None and a.google and r < 0.18:
            data, ms = self.expect(fn, "unlink", {"refreshToken": apple_session(a).token, "action": "unlink", "provider": "google"}, {"ok"})
            if data:
                a.google = None
                a.sessions = [s for s in a.sessions if s.provider != "google"]  # unlinking ends them
            return ms
        if a is not None and len(a.purchases) < 2 and r < 0.32:
            # An Apple ID has one original transaction per subscription: an account lists a few
            # purchases, and its later claims are restores (below).
            otid = self.next_otid()
            data, ms = self.expect(fn, "claim", {"refreshToken": apple_session(a).token, "action": "claimPurchase",
                                                 "signedTransaction": self.transaction(otid, a.uuid)}, {"ok"})
            if data:
                a.purchases.append(otid)
            return ms
        if a is not None and a.purchases and r < 0.36 + (0.10 if len(a.purchases) >= 2 else 0):
            return self.expect(fn, "restore", {"refreshToken": apple_session(a).token, "action": "claimPurchase",
                                               "signedTransaction": self.transaction(self.rng.choice(a.purchases), None)}, {"ok"})[1]
        owner = self.pick(lambda acc: acc.purchases and acc is not a)
        if a is not None and owner is not None and r < 0.39:
            return self.expect(fn, "claim-other", {"refreshToken": apple_session(a).token, "action": "claimPurchase",
                                                   "signedTransaction": self.transaction(self.rng.choice(owner.purchases), None)},
                               {"PURCHASE_BELONGS_TO_OTHER_ACCOUNT"})[1]
        if owner is not None and r < 0.50:
            otid = self.rng.choice(owner.purchases)
            signed = max(int(time.time() * 1000), owner.notified_ms.get(otid, 0) + 1)
            owner.notified_ms[otid] = signed
            kind = self.rng.choice(["DID_RENEW", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS", "PRICE_INCREASE"])
            note = self.pki.sign({"kind": "notification", "claims": {"notificationType": kind, "notificationUUID": str(uuidlib.uuid4()),
                                                                     "signedDate": signed},
                                  "transaction": {"kind": "transaction", "drop": ["appAccountToken"], "claims": {
                                      "originalTransactionId": otid, "signedDate": signed, "expiresDate": signed + 29 * DAY_MS}}})
            return self.expect(fn, "store-notification", {"signedPayload": note}, {"ok"}, url=True)[1]
        if a is not None and r < 0.57:
            kind = self.rng.choice(["email-disabled", "email-enabled"])
            return self.expect(fn, "apple-notification", {"payload": self.idp.apple_notification(a.apple, kind)}, {"ok"}, url=True)[1]
        if r < 0.58:
            # Through the schedule's alias (the only path that runs it); anyone else's is refused.
            self.expect(fn, "scheduled-run-unqualified", scheduled_event(), {"INVALID_REQUEST"})
            return self.expect(fn, "scheduled-run", scheduled_event(), {"ok"}, via=SCHEDULED)[1]
        if a is not None and r < 0.68:
            action = self.rng.choice(["link", "unlink", "delete", "claimPurchase"])
            event = {"refreshToken": forged(apple_session(a).token), "action": action, "provider": "google",
                     "idToken": self.idp.google_token(google_sub()), "signedTransaction": "a.b.c"}
            # a claim checks the transaction before the session: "a.b.c" is refused as INVALID_PURCHASE first
            return self.expect(fn, f"forged-{action}", event, {"SESSION_INVALID", "INVALID_REQUEST", "INVALID_PURCHASE"})[1]
        if a is not None and r < 0.75:
            bad = self.pki.sign({"kind": "transaction", "signature": self.rng.choice(["flip", "der"]),
                                 "claims": {"appAccountToken": a.uuid, "originalTransactionId": self.next_otid()}})
            return self.expect(fn, "invalid-purchase", {"refreshToken": apple_session(a).token, "action": "claimPurchase",
                                                        "signedTransaction": bad}, {"INVALID_PURCHASE"})[1]
        if r < 0.80:
            body = self.rng.choice([{"signedPayload": "a.b"}, {"payload": "a.b.c"},
                                    {"signedPayload": self.pki.sign({"kind": "notification", "signature": "flip"})}])
            return self.expect(fn, "bad-notification", body, {"INVALID_REQUEST", "INVALID_TOKEN", "INVALID_PURCHASE"}, url=True)[1]
        if r < 0.92:
            return self.expect(fn, "malformed", self.rng.choice(MALFORMED), {"INVALID_REQUEST"})[1]
        return self.expect(fn, "oversize", oversize_url(), {"INVALID_REQUEST"}, url=True)[1]

    STEPS = {"auth-signin": signin_step, "auth-refresh": refresh_step, "auth-link": link_step}


# ------------------------------------------------------------------ the run

def run(bin_dir: Path, n: int, warmup: int, samples: int = 8, windows: int = 10, seed: int | None = None,
        log_dir: Path | None = None, max_seconds: float = 3600, progress=None, extra_refusals: float = 0.0) -> dict:
    """Warm-up, then `n` measured invocations per function (interleaved: one of each per step).
    Returns per function: pid, samples [(invocations done, sample)], latencies (ms), outcomes,
    unexpected; and the seed and wall time."""
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    log_dir = Path(log_dir or ROOT / "bench-out" / "soak-logs")
    env = {  # Link, unlink and delete need a recent sign-in; the pool's sessions are up to a run old.
           "RECENT_AUTH_SECONDS": "86400"}
    local = LocalDeployment(bin_dir, log_dir=log_dir, extra_env=env)
    started = time.monotonic()
    result = {"seed": seed, "n": n, "warmup": warmup, "extra_refusals": extra_refusals, "functions": {}}
    with local:
        mix = Mix(local, seed, extra_refusals=extra_refusals)
        pids, runs = {}, {fn: {"samples": [], "latencies": []} for fn in FUNCTIONS}
        for i in range(warmup + n):
            if time.monotonic() - started > max_seconds:
                raise TimeoutError(f"soak: over {max_seconds} s after {i} steps (seed {seed})")
            for fn in FUNCTIONS:
                try:
                    ms = Mix.STEPS[fn](mix)
                except Unexpected as e:
                    mix.unexpected[fn].append(str(e))
                    ms = None
                if i >= warmup and ms is not None:
                    runs[fn]["latencies"].append(ms)
            if i == 0:
                for fn in FUNCTIONS:
                    pids[fn] = child_pid(local.emulators[fn].proc.pid, str(Path(bin_dir) / fn))
                    if pids[fn] is None:
                        raise RuntimeError(f"soak: no {fn} process under its emulator")
            done = i + 1 - warmup
            if done >= 0 and (done % max(1, n // samples) == 0 or done == n):
                for fn in FUNCTIONS:
                    if child_pid(local.emulators[fn].proc.pid, str(Path(bin_dir) / fn)) != pids[fn]:
                        raise RuntimeError(f"soak: {fn} is no longer process {pids[fn]} after {i + 1} steps (seed {seed})")
                    runs[fn]["samples"].append((done, sample(pids[fn])))
                if progress:
                    progress(done, runs)
        for fn in FUNCTIONS:
            result["functions"][fn] = {"pid": pids[fn], **runs[fn], "outcomes": mix.outcomes[fn], "unexpected": mix.unexpected[fn],
                                       "windows": window_stats(runs[fn]["latencies"], windows)}
    result["seconds"] = time.monotonic() - started
    return result


def window_stats(latencies: list, windows: int) -> list:
    size = max(1, len(latencies) // windows)
    out = []
    for w in range(windows):
        part = latencies[w * size:(w + 1) * size] if w < windows - 1 else latencies[w * size:]
        if part:
            out.append((pct(part, 50), pct(part, 99)))
    return out


def mb(kb: int) -> str:
    return f"{kb / 1024:6.2f} MB"


def report_targets(result: dict, floor_kb: int | None, out=sys.stdout) -> None:
    """The peak-RSS target: each function's VmHWM after the soak, and whether it stayed flat, beside
    the C + libcurl loop's VmHWM measured in the same run."""
    print(f"\npeak RSS (VmHWM) after {result['n']} warm invocations each (target <= 12 MB and flat)", file=out)
    for fn, r in result["functions"].items():
        first, last = r["samples"][0][1], r["samples"][-1][1]
        growth = (last["VmRSS"] - first["VmRSS"]) / 1024
        print(f"  {fn:<13} {mb(last['VmHWM'])}   growth after warm-up {growth:+.2f} MB "
              f"({'flat' if abs(growth) <= 0.5 else 'NOT flat'}: within 0.5 MB)", file=out)
    if floor_kb:
        print(f"  {'C + libcurl':<13} {mb(floor_kb)}   (the floor: signin_tools/bench/c/loop.c under the same emulator)", file=out)


def report(result: dict, out=sys.stdout) -> None:
    print(f"soak: {result['n']} invocations per function after {result['warmup']} of warm-up, one warm process each, "
          f"interleaved; seed {result['seed']}; {result['seconds']:.0f} s", file=out)
    for fn, r in result["functions"].items():
        first, last = r["samples"][0][1], r["samples"][-1][1]
        print(f"\n{fn} (pid {r['pid']})", file=out)
        print(f"  {'after':>14}  {'VmRSS':>9}  {'RssAnon':>9}  {'fds':>3}", file=out)
        for done, s in r["samples"]:
            label = "warm-up" if done == 0 else f"+{done}"
            print(f"  {label:>14}  {mb(s['VmRSS'])}  {mb(s['RssAnon'])}  {s['fds']:>3}", file=out)
        print(f"  growth after warm-up: VmRSS {(last['VmRSS'] - first['VmRSS']) / 1024:+.2f} MB, RssAnon "
              f"{(last['RssAnon'] - first['RssAnon']) / 1024:+.2f} MB, fds {last['fds'] - first['fds']:+d}; VmHWM {mb(last['VmHWM'])}",
              file=out)
        w = r["windows"]
        print(f"  latency per window of {len(r['latencies']) // len(w)}: first p50 {w[0][0]:6.2f} ms  p99 {w[0][1]:6.2f} ms;  "
              f"last p50 {w[-1][0]:6.2f} ms  p99 {w[-1][1]:6.2f} ms  (p99 last/first {w[-1][1] / w[0][1]:.2f} x)", file=out)
        print("  p99 by window: " + " ".join(f"{p99:.1f}" for _, p99 in w), file=out)
        ok = sum(v for k, v in r["outcomes"].items() if k.endswith(":ok"))
        print(f"  outcomes: {ok} successes, {sum(r['outcomes'].values()) - ok} expected refusals, {len(r['unexpected'])} unexpected", file=out)
        for line in r["unexpected"][:5]:
            print(f"    unexpected: {line}", file=out)


def main():
    bin_dir = Path(os.environ.get("SIGNIN_RELEASE_DIR", ROOT / ".build" / "release"))
    n, warmup = int(os.environ.get("SOAK_N", "20000")), int(os.environ.get("SOAK_WARMUP", "1000"))
    seed = int(os.environ["SOAK_SEED"]) if os.environ.get("SOAK_SEED") else None
    max_seconds = float(os.environ.get("SOAK_MAX_SECONDS", "3600"))

    def progress(done, runs):
        print(f"  ... {done}/{n}: " + ", ".join(f"{fn} {runs[fn]['samples'][-1][1]['VmRSS'] / 1024:.2f} MB {runs[fn]['samples'][-1][1]['fds']} fds"
                                               for fn in FUNCTIONS), file=sys.stderr, flush=True)
    result = run(bin_dir, n, warmup, seed=seed, max_seconds=max_seconds, progress=progress)
    report(result)
    floor = None
    if os.environ.get("C_LOOP"):
        from .runtime_roundtrip import floor_hwm_kb
        floor = floor_hwm_kb(os.environ["C_LOOP"], 2000, str(ROOT / "bench-out" / "soak-c-floor.log"))
    report_targets(result, floor)
    with open(ROOT / "bench-out" / "soak.json", "w") as f:
        json.dump({**result, "functions": {fn: {k: v for k, v in r.items() if k != "latencies"} for fn, r in result["functions"].items()}}, f)
    bad = {fn: len(r["unexpected"]) for fn, r in result["functions"].items() if r["unexpected"]}
    if bad:
        print(f"\nsoak: unexpected outcomes {bad}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    sys.exit(run_main(main))
