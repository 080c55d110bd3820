"""The storm (issue 14, fault injection at process level): the real executables under the official
Lambda emulator, several concurrent clients doing sign-up, sign-in, link, unlink, refresh, list,
sign-out, delete, purchase claims and replays of old tokens, with S3, STS and SSM reached through
a seeded fault-injecting proxy (signin_tools/standins/fault_proxy.py) in front of a moto of the
storm's own. Afterwards, fault-free, moto's final state is read directly (never through the code
under test) and checked against the simulation's invariants
(Tests/AccountSimulationTests/SimulationChecks*.swift, docs/API.md):

1. calls: every invocation got an envelope within its deadline (no crash, no emulator error, no
   Runtime API error), every `error.code` is the contract's; a replaced token never refreshed and
   its reuse revoked the session; no session refreshed after an unlink of its identity answered;
   nothing reached an account after its deletion answered; an unlink never answered
   PROVIDER_NOT_LINKED while the identity file named the account from its start to its end; an
   answered sign-out, deletion or link stays true;
2. state: every listed identity has its identity file naming the account and link; at most one
   identity (and one pending link) per provider per account; every account keeps a provider; one
   account per identity; every identity file is listed by its account (after the repair below:
   the storm's faults may leave pending or stale files for the next reader);
3. sessions: the latest token delivered for a session refreshes iff the session is live (not
   revoked, its identity still linked, its account not deleted), also after failed refreshes (a
   failure spends nothing; a lost answer leaves the token good for the grace, 300 s here); every
   token of a dead session is refused;
4. repair: a fault-free sign-in with every identity answers the account the state names (or
   ACCOUNT_NOT_FOUND), after which check 2 holds without exception;
5. purchases: one owner per purchase (another account's claim succeeds only after the first owner
   was deleted); a claim file names a live account whose providers.json lists the purchase.

STORM_SEED replays the fault decisions and every client's choices (thread scheduling still varies
the interleaving); STORM_RANDOM=1 draws a seed; STORM_OPS, STORM_CLIENTS, STORM_RATE and
STORM_SECONDS size the run (scripts/storm runs a longer one).

Refresh tokens are secrets: messages name sessions by id prefix, never a token. PYTEST_DONT_REWRITE."""
import calendar
import collections
import hashlib
import json
import os
import random
import threading
import time
from pathlib import Path

import pytest

from service_support import Service, account_of, scheduled_event, session_id_of
from signin_tools.standins import AppleAuthServer, FaultProxy, MotoServer
from signin_tools.standins.appstore_pki import AppStorePKI
from signin_tools.standins.local import SCHEDULED

CODES = {"INVALID_REQUEST", "UNSUPPORTED_PROVIDER", "INVALID_TOKEN", "TOKEN_EXPIRED", "ACCOUNT_NOT_FOUND",
         "ACCOUNT_ALREADY_EXISTS", "PROVIDER_ALREADY_LINKED", "PROVIDER_NOT_LINKED", "LAST_PROVIDER", "SESSION_INVALID",
         "REAUTHENTICATION_REQUIRED", "CONFLICT", "PURCHASE_BELONGS_TO_OTHER_ACCOUNT", "INVALID_PURCHASE",
         "UPSTREAM_UNAVAILABLE"}
# Failures a fault can cause: a session touched by one may have lost a rotation (docs/API.md, rule 4).
FAULT_CODES = {"UPSTREAM_UNAVAILABLE", "CONFLICT"}
FUNCTIONS = ("auth-signin", "auth-refresh", "auth-link")
FUNCTION_TIMEOUT = 10  # seconds, as template.yaml's functions
# The longest grace (docs/API.md rule 2): a refresh whose answer was lost stays retryable until the
# checks, so a live session's latest delivered token must still refresh then.
GRACE_SECONDS = 300
OP_WEIGHTS = {"signin": 16, "refresh": 22, "list": 4, "signout": 5, "link": 11, "unlink": 7, "delete": 3, "claim": 10,
              "replay": 4}
ROOT = Path(__file__).resolve().parents[2]


def settings() -> dict:
    if os.environ.get("STORM_SEED"):
        seed = int(os.environ["STORM_SEED"])
    elif os.environ.get("STORM_RANDOM") == "1":
        seed = random.SystemRandom().randrange(1, 1_000_000)
    else:
        seed = 14
    return {"seed": seed, "ops": int(os.environ.get("STORM_OPS", "300")),
            "clients": int(os.environ.get("STORM_CLIENTS", "4")), "rate": float(os.environ.get("STORM_RATE", "0.3")),
            "seconds": float(os.environ.get("STORM_SECONDS", "90"))}


# -- people and what the clients hold -----------------------------------------------------------------

class Person:
    """One user: an Apple ID, a Google account, and a second Google account (a link of it to an
    account that has the first one is PROVIDER_ALREADY_LINKED)."""

    def __init__(self, seed: int, index: int):
        rng = random.Random(f"storm:{seed}:person:{index}")
        self.index = index
        self.apple = f"001234.{rng.getrandbits(128):032x}.0001"
        self.google = str(100000000000000000000 + rng.randrange(10**20))
        self.google2 = str(100000000000000000000 + rng.randrange(10**20))

    def identities(self) -> list[tuple[str, str]]:
        return [("apple", self.apple), ("google", self.google), ("google", self.google2)]


class Session:
    """A session as its client knows it: every token delivered for it, in order."""

    def __init__(self, token: str, provider: str, sub: str, person: Person, client: int, signed_in: float):
        self.sid = session_id_of(token)
        self.uuid = account_of(token)
        self.provider, self.sub, self.person, self.client = provider, sub, person, client
        self.tokens = [token]
        self.signed_in = signed_in
        self.touched_by_fault = False
        self.last_fault_at = None  # when a call on it last failed for a fault
        self.signed_out = False  # a signout answered success

    @property
    def current(self) -> str:
        return self.tokens[-1]

    @property
    def name(self) -> str:
        return f"session {self.sid[:6]} ({self.provider}, account {self.uuid[:8]})"


class Op:
    def __init__(self, n: int, client: int, name: str, session: Session | None = None):
        self.n, self.client, self.name, self.session = n, client, name, session
        self.start = time.monotonic()
        self.end = None
        self.outcome = None  # "ok" or an error code or "no envelope"
        self.status = None  # data.status of link/unlink/claim answers
        self.reached = session.uuid if session else None
        self.detail = {}

    @property
    def succeeded(self) -> bool:
        return self.outcome == "ok"


# -- the state, read directly from moto ----------------------------------------------------------------

def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class State:
    """Every object the checks need, read with the tests' admin key straight from moto."""

    def __init__(self, moto: MotoServer):
        s3 = moto.s3()
        self.keys = []
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=moto.bucket):
            self.keys.extend(item["Key"] for item in page.get("Contents", []))

        def get(key):
            try:
                got = s3.get_object(Bucket=moto.bucket, Key=key)
            except s3.exceptions.NoSuchKey:
                return None
            return got["Body"].read(), got.get("Metadata", {})

        self.identities = {}  # (type, id) -> (uuid, linkID)
        self.providers = {}  # uuid -> providers.json
        self.sessions = {}  # (uuid, sid) -> record
        self.deletions = {}  # uuid -> record
        self.claims = {}  # otid -> uuid
        for key in self.keys:
            parts = key.split("/")
            if key.startswith("identities/") and len(parts) == 3:
                got = get(key)
                if got:
                    self.identities[(parts[1], parts[2])] = (got[0].decode(), got[1].get("link-id"))
            elif key.startswith("users/") and key.endswith("/account/providers.json"):
                got = get(key)
                if got:
                    self.providers[parts[1]] = json.loads(got[0])
            elif key.startswith("users/") and len(parts) == 5 and parts[3] == "sessions":
                got = get(key)
                if got:
                    self.sessions[(parts[1], parts[4][:-len(".json")])] = json.loads(got[0])
            elif key.startswith("deletions/"):
                got = get(key)
                if got:
                    record = json.loads(got[0])
                    self.deletions[record["serviceUserID"]] = record
            elif key.startswith("purchases/apple/"):
                got = get(key)
                if got:
                    self.claims[parts[2]] = got[0].decode()

    @property
    def deleted(self) -> set[str]:
        """Accounts whose deletion committed (the record says so, or providers.json does)."""
        return ({u for u, r in self.deletions.items() if r.get("committedAt")}
                | {u for u, doc in self.providers.items() if doc.get("deletedAt")})

    def live(self, uuid: str) -> dict | None:
        """providers.json of an account that is not deleted."""
        return None if uuid in self.deleted else self.providers.get(uuid)

    @staticmethod
    def lists(doc: dict, ptype: str, sub: str, link: str | None) -> bool:
        return any(e.get("type") == ptype and e.get("id") == sub and e.get("linkID") == link for e in doc.get("providers", []))

    def expected_owner(self, ptype: str, sub: str) -> str | None:
        """The account a sign-in with this identity must reach, from the state alone (as the
        simulation's `expectedOwner`)."""
        file = self.identities.get((ptype, sub))
        if file is None:
            return None
        uuid, link = file
        if uuid in self.deleted or uuid in self.deletions:
            return None
        doc = self.providers.get(uuid)
        if doc is None:
            return uuid  # half-made: a sign-in completes it
        if self.lists(doc, ptype, sub, link):
            return uuid
        slot_free = not any(e.get("type") == ptype for e in doc.get("providers", []))
        if link and any(e.get("linkID") == link and e.get("id") == sub for e in doc.get("pending", [])):
            return uuid if slot_free else None
        return None


# -- the storm -----------------------------------------------------------------------------------------

class Storm:
    def __init__(self, svc: Service, proxy: FaultProxy, pki: AppStorePKI, apple: AppleAuthServer, link_env: dict,
                 config: dict):
        self.svc, self.proxy, self.pki, self.apple = svc, proxy, pki, apple
        self.config = config
        self.seed = config["seed"]
        rng = random.Random(f"storm:{self.seed}:world")
        self.persons = [Person(self.seed, i) for i in range(max(3, config["clients"] + 2))]
        self.purchases = [str(2_000_000_000_000_000 + rng.randrange(10**15)) for _ in range(4)]
        self.ops: list[Op] = []
        self.sessions: list[Session] = []
        self.violations: list[str] = []
        self.checks = collections.Counter()
        self.lock = threading.Lock()
        self.truncated = False
        common = {"AWS_ENDPOINT_URL": proxy.endpoint, "AWS_LAMBDA_FUNCTION_TIMEOUT": FUNCTION_TIMEOUT,
                  "REFRESH_REUSE_GRACE_SECONDS": GRACE_SECONDS}
        self.env = {"auth-signin": common, "auth-refresh": common, "auth-link": {**common, **link_env}}
        # One emulator per function per client: one emulator serves one invocation at a time.
        self.emulators = [{name: svc.start(name, **self.env[name]) for name in FUNCTIONS}
                          for _ in range(config["clients"])]
        # The scheduled run comes through the schedule's alias (issue 18, defect 7).
        self.emulators[0][SCHEDULED] = svc.start(SCHEDULED, **self.env["auth-link"])

    # -- bookkeeping --------------------------------------------------------------------------------

    def check(self, kind: str, ok: bool, message: str) -> bool:
        with self.lock:
            self.checks[kind] += 1
            if not ok:
                self.violations.append(f"[{kind}] {message}")
        return ok

    def new_op(self, client: int, name: str, session: Session | None = None) -> Op:
        with self.lock:
            op = Op(len(self.ops), client, name, session)
            self.ops.append(op)
        return op

    def call(self, client: int, function: str, event: dict, op: Op) -> dict | None:
        """One invocation; the envelope and its deadline are checked here. Returns the envelope."""
        emu = self.emulators[client][function]
        started = time.monotonic()
        try:
            status, body = emu.invoke_raw(json.dumps(event).encode(), timeout=FUNCTION_TIMEOUT + 20)
        except Exception as e:  # no answer at all
            op.end, op.outcome = time.monotonic(), "no answer"
            self.check("envelope", False, f"op {op.n} {op.name}: no answer from the emulator ({type(e).__name__})")
            return None
        op.end = time.monotonic()
        elapsed = op.end - started
        try:
            answer = json.loads(body)
        except ValueError:
            answer = None
        shaped = (isinstance(answer, dict) and isinstance(answer.get("success"), bool)
                  and set(answer) == ({"success", "data", "meta"} if answer.get("success") else {"success", "error", "meta"})
                  and bool(answer["meta"].get("requestId")))
        if status != 200 or not shaped:
            # What the body was, without its values (an envelope cut short could hold a token).
            if isinstance(answer, dict):
                what = answer.get("errorType") or f"keys {sorted(answer)}"
            else:
                what = f"{len(body)} bytes, not a JSON object"
            op.outcome = "no envelope"
            self.check("envelope", False, f"op {op.n} {op.name}: no envelope: HTTP {status}, {what}")
            return None
        self.check("envelope", True, "")
        self.check("deadline", elapsed <= FUNCTION_TIMEOUT + 1.0,
                   f"op {op.n} {op.name}: answered after {elapsed:.1f} s, past its {FUNCTION_TIMEOUT} s deadline")
        if answer["success"]:
            op.outcome = "ok"
        else:
            op.outcome = answer["error"].get("code")
            self.check("error code", op.outcome in CODES, f"op {op.n} {op.name}: error code {op.outcome!r} is not the contract's")
            if op.session is not None and op.outcome in FAULT_CODES:
                op.session.touched_by_fault = True
                op.session.last_fault_at = op.end
        return answer

    # -- the clients --------------------------------------------------------------------------------

    def run(self) -> None:
        self.started = time.monotonic()
        self.stop_at = self.started + self.config["seconds"]
        quota = [self.config["ops"] // self.config["clients"]] * self.config["clients"]
        for i in range(self.config["ops"] % self.config["clients"]):
            quota[i] += 1
        threads = [threading.Thread(target=self.client, args=(c, quota[c]), name=f"storm-client-{c}", daemon=True)
                   for c in range(self.config["clients"])]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=self.config["seconds"] + 4 * (FUNCTION_TIMEOUT + 20))
        self.check("clients", not any(t.is_alive() for t in threads), "a client thread did not finish in time")
        self.storm_seconds = time.monotonic() - self.started

    def client(self, c: int, quota: int) -> None:
        rng = random.Random(f"storm:{self.seed}:client:{c}")
        held: list[Session] = []
        names, weights = list(OP_WEIGHTS), list(OP_WEIGHTS.values())
        for _ in range(quota):
            if time.monotonic() > self.stop_at:
                self.truncated = True
                return
            name = rng.choices(names, weights)[0]
            if not held or (name == "signin" and len(held) > 6):
                name = "signin" if not held else "signout"
            session = rng.choice(held) if held and name != "signin" else None
            try:
                getattr(self, "op_" + name)(c, rng, held, session)
            except Exception as e:  # a bug in the storm itself: report it, keep going
                self.check("storm", False, f"client {c} {name}: {type(e).__name__}: {e}")

    def drop(self, held: list[Session], session: Session) -> None:
        if session in held:
            held.remove(session)

    def op_signin(self, c, rng, held, _session) -> None:
        person = rng.choice(self.persons)
        provider, sub = rng.choices(person.identities(), [45, 45, 10])[0]
        intent = rng.choices(["auto", "signin", "signup"], [6, 3, 1])[0]
        token = self.svc.idp.apple_token(sub) if provider == "apple" else self.svc.idp.google_token(sub)
        op = self.new_op(c, "signin")
        op.detail = {"intent": intent, "identity": (provider, sub)}
        answer = self.call(c, "auth-signin", {"provider": provider, "idToken": token, "intent": intent, "device": f"storm {c}"}, op)
        if answer and answer["success"]:
            data = answer["data"]
            session = Session(data["refreshToken"], provider, sub, person, c, op.end)
            op.reached = data["user"]["serviceUserID"]
            self.check("answer", session.uuid == op.reached, f"op {op.n}: the token names another account than the user")
            with self.lock:
                self.sessions.append(session)
            held.append(session)

    def op_refresh(self, c, rng, held, s: Session) -> None:
        op = self.new_op(c, "refresh", s)
        answer = self.call(c, "auth-refresh", {"refreshToken": s.current, "action": "refresh"}, op)
        if answer is None:
            s.touched_by_fault, s.last_fault_at = True, op.end
        elif answer["success"]:
            s.tokens.append(answer["data"]["refreshToken"])
            self.check("answer", answer["data"]["user"]["serviceUserID"] == s.uuid, f"op {op.n}: refresh answered another account")
        elif op.outcome == "SESSION_INVALID":
            self.drop(held, s)

    def op_list(self, c, rng, held, s: Session) -> None:
        op = self.new_op(c, "list", s)
        answer = self.call(c, "auth-refresh", {"refreshToken": s.current, "action": "list"}, op)
        if answer and answer["success"]:
            current = [x["sessionId"] for x in answer["data"]["sessions"] if x.get("current")]
            self.check("answer", current == [s.sid], f"op {op.n}: list marks {current} current, not {s.sid[:6]}")
        elif op.outcome == "SESSION_INVALID":
            self.drop(held, s)

    def op_signout(self, c, rng, held, s: Session) -> None:
        op = self.new_op(c, "signout", s)
        answer = self.call(c, "auth-refresh", {"refreshToken": s.current, "action": "signout"}, op)
        if answer and answer["success"]:
            s.signed_out = True
            self.drop(held, s)
        elif op.outcome == "SESSION_INVALID":
            self.drop(held, s)

    def op_link(self, c, rng, held, s: Session) -> None:
        person = s.person
        provider = "google" if s.provider == "apple" else rng.choice(["apple", "google"])
        sub = person.apple if provider == "apple" else rng.choices([person.google, person.google2], [8, 2])[0]
        token = self.svc.idp.apple_token(sub) if provider == "apple" else self.svc.idp.google_token(sub)
        op = self.new_op(c, "link", s)
        op.detail = {"identity": (provider, sub)}
        answer = self.call(c, "auth-link", {"refreshToken": s.current, "action": "link", "provider": provider, "idToken": token}, op)
        if answer and answer["success"]:
            op.status = answer["data"]["status"]
        elif op.outcome == "SESSION_INVALID":
            self.drop(held, s)

    def identity_files(self, person: Person, provider: str) -> dict:
        """What the identity files of the person's identities of `provider` name, read directly."""
        subs = [person.apple] if provider == "apple" else [person.google, person.google2]
        out = {}
        for sub in subs:
            got = self.svc.read_object(f"identities/{provider}/{sub}")
            if got is not None:
                out[sub] = (got["body"].decode(), got["metadata"].get("link-id"))
        return out

    def op_unlink(self, c, rng, held, s: Session) -> None:
        provider = rng.choice(["apple", "google"])
        before = self.identity_files(s.person, provider)
        op = self.new_op(c, "unlink", s)
        op.detail = {"provider": provider}
        answer = self.call(c, "auth-link", {"refreshToken": s.current, "action": "unlink", "provider": provider}, op)
        after = self.identity_files(s.person, provider)
        if answer and answer["success"]:
            op.status = answer["data"]["status"]
        elif op.outcome == "PROVIDER_NOT_LINKED":
            for sub, file in before.items():
                self.check("unlink", not (file[0] == s.uuid and after.get(sub) == file),
                           f"op {op.n}: unlink answered PROVIDER_NOT_LINKED while {provider}:{sub[:12]}'s identity file "
                           f"named account {s.uuid[:8]} from its start to its answer")
        elif op.outcome == "SESSION_INVALID":
            self.drop(held, s)

    def op_delete(self, c, rng, held, s: Session) -> None:
        event = {"refreshToken": s.current, "action": "delete"}
        if rng.random() < 0.7:
            event["authorizationCode"] = self.apple.issue_code(s.person.apple)
        op = self.new_op(c, "delete", s)
        answer = self.call(c, "auth-link", event, op)
        if answer and answer["success"]:
            op.status = answer["data"].get("purge")
            self.check("answer", answer["data"]["serviceUserID"] == s.uuid, f"op {op.n}: delete answered another account")
            for other in [x for x in held if x.uuid == s.uuid]:
                self.drop(held, other)
        elif op.outcome == "SESSION_INVALID":
            self.drop(held, s)

    def transaction(self, otid: str) -> str:
        return self.pki.transaction(otid)

    def op_claim(self, c, rng, held, s: Session) -> None:
        otid = rng.choice(self.purchases)
        op = self.new_op(c, "claim", s)
        op.detail = {"purchase": otid}
        answer = self.call(c, "auth-link", {"refreshToken": s.current, "action": "claimPurchase",
                                            "signedTransaction": self.transaction(otid)}, op)
        if answer and answer["success"]:
            op.status = answer["data"]["status"]
        elif op.outcome == "SESSION_INVALID":
            self.drop(held, s)

    def op_replay(self, c, rng, held, s: Session) -> None:
        """A thief presents a token two or more rotations old: reuse, which must revoke the session."""
        if len(s.tokens) < 3:
            return self.op_refresh(c, rng, held, s)
        old = rng.choice(s.tokens[:-2])
        op = self.new_op(c, "replay", s)
        self.call(c, "auth-refresh", {"refreshToken": old, "action": "refresh"}, op)
        self.check("reuse", op.outcome != "ok", f"op {op.n}: a replaced token of {s.name} refreshed (reuse not detected)")
        if op.outcome == "SESSION_INVALID":
            record = self.svc.read_object(f"users/{s.uuid}/account/sessions/{s.sid}.json")
            revoked = record is None or json.loads(record["body"]).get("revokedAt") is not None
            self.check("reuse", revoked, f"op {op.n}: reuse of a replaced token did not revoke {s.name}")
            self.drop(held, s)

    # -- after the storm: the checks ----------------------------------------------------------------

    def probe(self, function: str, event: dict, what: str) -> dict | None:
        op = self.new_op(0, what)
        return self.call(0, function, event, op)

    def verify(self) -> None:
        self.proxy.set_rate(0.0)
        self.calls()
        # The scheduled run finishes what failed deletions left (the first purge pass).
        scheduled = scheduled_event()
        for _ in range(2):
            answer = self.probe(SCHEDULED, scheduled, "check: scheduled run")
            self.check("scheduled run", bool(answer and answer["success"]),
                       f"the fault-free scheduled run answered {answer and answer.get('error', {}).get('code')}")
        state = State(self.svc.moto)
        self.state(state, strict=False, phase="after the storm")
        self.durable(state)
        self.purchases_(state)
        self.sessions_(state)
        self.repair(state)
        final = State(self.svc.moto)
        self.state(final, strict=True, phase="after repair")
        self.purchases_(final)
        self.final_state = final

    def calls(self) -> None:
        """Checks over the recorded calls (1)."""
        ops = [o for o in self.ops if o.end is not None]
        deletes = [o for o in ops if o.name == "delete" and o.succeeded]
        for d in deletes:
            for o in ops:
                if o.start > d.end and o.succeeded and o.name not in ("delete", "signout") and o.reached == d.session.uuid:
                    self.check("deleted", False, f"op {o.n} {o.name} reached account {d.session.uuid[:8]} after its "
                                                 f"deletion (op {d.n}) answered")
            self.checks["deleted"] += 1
        unlinks = [o for o in ops if o.name == "unlink" and o.succeeded]
        for u in unlinks:
            for o in ops:
                s = o.session
                if (o.name == "refresh" and s is not None and s.uuid == u.session.uuid
                        and s.provider == u.detail["provider"] and s.signed_in < u.start and o.start > u.end):
                    self.check("unlinked", not o.succeeded, f"op {o.n}: {s.name} refreshed after the unlink of its "
                                                            f"identity answered (op {u.n})")
        # One owner per purchase: another account's claim succeeds only after the owner was deleted.
        self.claim_ops = [o for o in ops if o.name == "claim" and o.succeeded]

    def state(self, state: State, strict: bool, phase: str) -> None:
        """Identity files and providers.json agree (2)."""
        owners = collections.defaultdict(list)
        for uuid, doc in state.providers.items():
            if uuid in state.deleted:
                continue
            active = doc.get("providers", [])
            self.check("state", bool(active), f"{phase}: account {uuid[:8]} has no provider left")
            for ptype in ("apple", "google"):
                self.check("state", sum(e.get("type") == ptype for e in active) <= 1,
                           f"{phase}: account {uuid[:8]} lists two {ptype} identities")
                self.check("state", sum(e.get("type") == ptype for e in doc.get("pending", [])) <= 1,
                           f"{phase}: account {uuid[:8]} has two pending {ptype} links")
            for e in active:
                owners[(e["type"], e["id"])].append(uuid)
                file = state.identities.get((e["type"], e["id"]))
                self.check("state", file == (uuid, e.get("linkID")),
                           f"{phase}: account {uuid[:8]} lists {e['type']}:{e['id'][:12]} but its identity file is "
                           f"{(file[0][:8] + '/' + str(file[1])) if file else 'missing'}")
        for (ptype, sub), uuids in owners.items():
            self.check("one account per identity", len(uuids) == 1,
                       f"{phase}: {ptype}:{sub[:12]} is listed by {len(uuids)} accounts: {[u[:8] for u in uuids]}")
        for (ptype, sub), (uuid, link) in state.identities.items():
            if not strict:
                continue
            if uuid in state.deleted:
                self.check("state", False, f"{phase}: {ptype}:{sub[:12]} still names deleted account {uuid[:8]}")
            elif uuid not in state.providers:
                self.check("state", False, f"{phase}: {ptype}:{sub[:12]} maps to account {uuid[:8]} without providers.json")
            else:
                self.check("state", state.lists(state.providers[uuid], ptype, sub, link),
                           f"{phase}: {ptype}:{sub[:12]} has an identity file that account {uuid[:8]} does not list")

    def durable(self, state: State) -> None:
        """What an answer said stays true: a deletion, a link (unless an unlink retired it)."""
        for o in self.ops:
            if o.name == "delete" and o.succeeded:
                self.check("durable", o.session.uuid in state.deleted,
                           f"op {o.n}: delete answered, but account {o.session.uuid[:8]} is not deleted")
            if o.name == "link" and o.succeeded and o.session.uuid not in state.deleted:
                ptype, sub = o.detail["identity"]
                doc = state.providers.get(o.session.uuid) or {}
                listed = any(e.get("type") == ptype and e.get("id") == sub for e in doc.get("providers", []) + doc.get("retired", []))
                self.check("durable", listed, f"op {o.n}: link of {ptype}:{sub[:12]} answered {o.status}, but account "
                                              f"{o.session.uuid[:8]} neither lists it nor retired it")

    def purchases_(self, state: State) -> None:
        """One owner per purchase (5)."""
        for otid in self.purchases:
            owner = None
            for o in sorted((o for o in self.claim_ops if o.detail["purchase"] == otid), key=lambda o: o.end):
                uuid = o.session.uuid
                self.check("one owner", owner is None or owner == uuid or owner in state.deleted,
                           f"op {o.n}: {otid} claimed by {uuid[:8]} ({o.status}) while {owner and owner[:8]} owns it")
                owner = uuid
            holder = state.claims.get(otid)
            if holder is None:
                continue
            if holder in state.deleted:
                self.check("claim file", False, f"{otid} is still claimed by deleted account {holder[:8]}")
            else:
                listed = otid in (state.providers.get(holder) or {}).get("purchases", [])
                self.check("claim file", listed, f"{otid} is claimed by {holder[:8]}, whose providers.json does not list it")

    def sessions_(self, state: State) -> None:
        """Each session's current token refreshes iff it is live; every token of a dead one is refused (3)."""
        now_ms = int(time.time() * 1000)
        for s in self.sessions:
            record = state.sessions.get((s.uuid, s.sid))
            doc = state.live(s.uuid)
            live = False
            if record is not None and record.get("revokedAt") is None and doc is not None:
                identity = record.get("identity") or {}
                expires = calendar.timegm(time.strptime(record.get("expiresAt", "1970-01-01T00:00:00")[:19], "%Y-%m-%dT%H:%M:%S"))
                live = (identity.get("provider") == s.provider and expires * 1000 > now_ms
                        and state.lists(doc, s.provider, identity.get("sub"), identity.get("linkID")))
            if s.signed_out:
                self.check("sessions", not live, f"{s.name}: signout answered, but the session is live")
            if live:
                # The latest token works: it is current, or a lost answer rotated it out less than the
                # grace ago (rule 2). A failure spends nothing (rule 4).
                answer = self.probe("auth-refresh", {"refreshToken": s.current, "action": "refresh"}, "check: live session")
                ok = bool(answer and answer["success"])
                if ok:
                    s.tokens.append(answer["data"]["refreshToken"])
                # Excused only when the grace has run out since a failure, and the proxy applied a write
                # of this session's record and dropped its answer (the contract's one exception).
                lapsed = (s.last_fault_at is not None and time.monotonic() - s.last_fault_at > GRACE_SECONDS - 15
                          and any(kind == "drop_answer" and label.startswith("PUT ")
                                  for _, kind, label in self.proxy.faults_touching(f"/sessions/{s.sid}.json")))
                is_current = sha256_hex(s.tokens[-2] if ok else s.current) == record["current"]["hash"]
                self.check("sessions", ok or lapsed,
                           f"{s.name}: live, but its latest token is refused ({answer and answer.get('error', {}).get('code')}; "
                           f"{'current' if is_current else 'not current'}; "
                           f"{'after a failure' if s.touched_by_fault else 'no failure answered'})")
            else:
                for token in reversed(s.tokens):
                    answer = self.probe("auth-refresh", {"refreshToken": token, "action": "refresh"}, "check: dead session")
                    got = None if answer is None else ("ok" if answer["success"] else answer["error"]["code"])
                    self.check("sessions", got != "ok", f"{s.name}: ended, unlinked or deleted, but a token still refreshes")
                    self.check("sessions", got in ("ok", "SESSION_INVALID"), f"{s.name}: probing a dead session answered {got}")

    def repair(self, state: State) -> None:
        """A fault-free sign-in with every identity answers what the state says (4)."""
        universe = {i for p in self.persons for i in p.identities()} | set(state.identities)
        for ptype, sub in sorted(universe):
            expected = state.expected_owner(ptype, sub)
            token = self.svc.idp.apple_token(sub) if ptype == "apple" else self.svc.idp.google_token(sub)
            answer = self.probe("auth-signin", {"provider": ptype, "idToken": token, "intent": "signin"}, "check: repair")
            got = None if answer is None else (answer["data"]["user"]["serviceUserID"] if answer["success"] else answer["error"]["code"])
            want = expected or "ACCOUNT_NOT_FOUND"
            self.check("repair", got == want, f"repair: {ptype}:{sub[:12]} signed in to {got and got[:17]}, expected {want[:17]}")

    # -- the report ---------------------------------------------------------------------------------

    def report(self) -> str:
        storm_ops = [o for o in self.ops if not o.name.startswith("check:")]
        by_kind = collections.defaultdict(collections.Counter)
        for o in storm_ops:
            by_kind[o.name][o.status if o.succeeded and o.status and o.name != "delete" else o.outcome] += 1
        faults = self.proxy.summary()
        lines = [f"storm: seed {self.seed} (replay: scripts/storm {self.seed} {self.config['ops']}, or STORM_SEED={self.seed} "
                 f"STORM_OPS={self.config['ops']} .venv/bin/python -m pytest -q -p no:cacheprovider Tests/integration/test_storm.py)",
                 f"  {len(storm_ops)} operations by {self.config['clients']} clients in {self.storm_seconds:.1f} s"
                 f"{' (stopped by the time bound)' if self.truncated else ''}, fault rate {self.config['rate']}:"]
        for name in OP_WEIGHTS:
            if by_kind.get(name):
                lines.append(f"    {name:8} " + ", ".join(f"{k} {v}" for k, v in sorted(by_kind[name].items(), key=lambda kv: -kv[1])))
        lines.append(f"  proxy: {faults['requests']} requests ({', '.join(f'{k} {v}' for k, v in sorted(faults['by_service'].items()))}), "
                     f"{faults['forwarded']} forwarded; faults injected: " + ", ".join(f"{k} {v}" for k, v in faults["faults"].items()))
        checks = sum(self.checks.values())
        lines.append(f"  invariant checks: {checks} (" + ", ".join(f"{k} {v}" for k, v in sorted(self.checks.items())) + ")")
        lines.append(f"  final state: {len(self.final_state.providers)} accounts ({len(self.final_state.deleted)} deleted), "
                     f"{len(self.final_state.identities)} identity files, {len(self.final_state.sessions)} session records, "
                     f"{len(self.final_state.claims)} claimed purchases")
        lines.append(f"  violations: {len(self.violations)}")
        return "\n".join(lines)


# -- the test ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def storm_moto(tmp_path_factory):
    """A moto of the storm's own, so its final state is exactly the storm's."""
    server = MotoServer(log_path=str(tmp_path_factory.mktemp("storm") / "moto.log")).start()
    yield server
    server.stop()


def test_storm(storm_moto, idp, tmp_path, capsys):
    config = settings()
    pki = AppStorePKI()
    key_parameter = "/signin/storm-apple-key"
    with AppleAuthServer(idp) as apple, FaultProxy(storm_moto.port, seed=config["seed"], rate=0.0) as proxy:
        storm_moto.put_secure_parameter(key_parameter, apple.private_key_pem())
        link_env = {k: v for k, v in apple.function_env().items() if k != "APPLE_PRIVATE_KEY"}
        link_env.update(APPLE_PRIVATE_KEY_PARAMETER=key_parameter,  # read from SSM at init, through the proxy
                        **pki.function_env())
        svc = Service(storm_moto, idp, tmp_path)
        try:
            storm = Storm(svc, proxy, pki, apple, link_env, config)
            proxy.set_rate(config["rate"])
            storm.run()
            storm.verify()
            report = storm.report()
        finally:
            svc.stop()
    with capsys.disabled():
        print("\n" + report)
    out = ROOT / ".tmp"
    out.mkdir(exist_ok=True)
    (out / "storm-report.txt").write_text(report + "\n" + "\n".join(storm.violations) + "\n")
    assert not storm.violations, (f"the storm (seed {config['seed']}) broke {len(storm.violations)} invariant checks; "
                                  f"replay with scripts/storm {config['seed']} {config['ops']}:\n" + "\n".join(storm.violations[:30]))
