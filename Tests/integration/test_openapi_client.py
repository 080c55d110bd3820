"""docs/openapi.yaml holds the client's wire types (no server involved): every event the client
sends validates against the document's request schema for its function and covers every action;
every answer the document allows decodes in the client, both with only its required fields and
with all of them; the client's error codes are the document's. (scripts/check-openapi holds the
functions to the same document with schemathesis.)"""
import json
import subprocess
import uuid

import jsonschema
import yaml

from conftest import ROOT, executable

DOC = yaml.safe_load((ROOT / "docs" / "openapi.yaml").read_text())
SCHEMAS = DOC["components"]["schemas"]
ANSWER_SCHEMA = {"signin": "SignInData", "refresh": "SessionData", "list": "SessionListData",
                 "signout": "SignedOutData", "signoutSession": "SignedOutData", "signoutOthers": "SignedOutCountData",
                 "link": "LinkData", "unlink": "LinkData", "delete": "DeletionData", "claimPurchase": "ClaimData"}
REQUEST_SCHEMA = {"auth-signin": "SignInEvent", "auth-refresh": "SessionEvent", "auth-link": "AccountEvent"}


def resolve(schema: dict) -> dict:
    while "$ref" in schema:
        schema = SCHEMAS[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def instance(schema: dict, full: bool):
    """A value the schema allows: only required properties, or all of them (`full`)."""
    schema = resolve(schema)
    if "allOf" in schema:
        merged: dict = {}
        for part in schema["allOf"]:
            merged.update(instance(part, full))
        return merged
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type", "object")
    kind = next(k for k in kind if k != "null") if isinstance(kind, list) else kind
    if kind == "object":
        props = schema.get("properties", {})
        names = props if full else schema.get("required", [])
        return {name: instance(props[name], full) for name in names}
    if kind == "array":
        return [instance(schema["items"], full)]
    if kind == "boolean":
        return True
    if kind == "integer":
        return 1
    fmt = schema.get("format")
    if fmt == "date-time":
        return "2026-11-25T01:02:03Z"
    if fmt == "uuid":
        return str(uuid.UUID(int=19))
    if "pattern" in schema:
        return f"users/{uuid.UUID(int=19)}/"
    return "x"


def run_wire(tmp_path, full: bool) -> dict:
    answers = {action: instance(SCHEMAS[name], full) for action, name in ANSWER_SCHEMA.items()}
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers))
    done = subprocess.run([executable("client-check"), "wire", "--answers", str(path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-1000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_answer_the_document_allows_decodes(tmp_path):
    for full in (False, True):
        result = run_wire(tmp_path, full)
        assert result["failures"] == [], result["failures"]
        assert set(result["decoded"]) == set(ANSWER_SCHEMA) - {"signout"}


def test_every_event_the_client_sends_is_in_the_document(tmp_path):
    result = run_wire(tmp_path, full=True)
    actions = {"auth-signin": set(), "auth-refresh": set(), "auth-link": set()}
    for sent in result["events"]:
        schema = {**SCHEMAS[REQUEST_SCHEMA[sent["function"]]], "components": DOC["components"]}
        jsonschema.validate(sent["event"], schema)
        actions[sent["function"]].add(sent["event"].get("action", "signin"))
    for function, name in (("auth-refresh", "SessionEvent"), ("auth-link", "AccountEvent")):
        assert actions[function] == set(SCHEMAS[name]["properties"]["action"]["enum"]), function
    signin = next(s["event"] for s in result["events"] if s["function"] == "auth-signin")
    assert set(signin) == set(SCHEMAS["SignInEvent"]["properties"])  # every field of the event is reachable


def test_the_clients_error_codes_are_the_documents(tmp_path):
    result = run_wire(tmp_path, full=False)
    assert result["codes"] == SCHEMAS["ErrorCode"]["enum"]
