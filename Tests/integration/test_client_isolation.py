"""The functions never link the client or Foundation: the three executables' target closure (from
`swift package dump-package`) holds neither SignInClient nor any source that imports Foundation or
FoundationNetworking. (docs/decisions/clients.md, "The app's client", records the bootstraps
before/after: byte-identical.)"""
import json
import re
import subprocess

from conftest import ROOT

FOUNDATION = re.compile(r"^\s*(@preconcurrency\s+)?import\s+(Foundation|FoundationNetworking|FoundationEssentials)\b", re.M)


def closure(targets: dict, names: list[str]) -> set[str]:
    seen: set[str] = set()
    stack = list(names)
    while stack:
        name = stack.pop()
        if name in seen or name not in targets:
            continue
        seen.add(name)
        for dep in targets[name].get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dep:
                    stack.append(dep[kind][0])
    return seen


def test_the_functions_closure_has_no_client_and_no_foundation():
    manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True,
                                         text=True, check=True, timeout=120).stdout)
    targets = {t["name"]: t for t in manifest["targets"]}
    functions = closure(targets, ["auth-signin", "auth-refresh", "auth-link"])
    assert "SignInClient" not in functions and "AuthService" in functions
    offenders = []
    for name in functions:
        path = ROOT / (targets[name].get("path") or f"Sources/{name}")
        offenders += [str(f.relative_to(ROOT)) for f in path.rglob("*.swift") if FOUNDATION.search(f.read_text())]
    assert offenders == []
    client = ROOT / "Sources" / "SignInClient"
    assert any(FOUNDATION.search(f.read_text()) for f in client.rglob("*.swift"))  # the check can see an import
