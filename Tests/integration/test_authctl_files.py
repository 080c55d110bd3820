"""Files authctl writes (issue 23, defect 8; contract v4): an export is created mode 0600
whatever existed at its path, and never written through a symbolic link, in the file itself or
anywhere in its path. PYTEST_DONT_REWRITE."""
import json
import os
import stat

from authctl_support import operator  # noqa: F401 (fixture)
from service_support import apple_sub, ok


def account(svc) -> str:
    return ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))["user"]["serviceUserID"]


def mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_an_export_over_an_existing_file_is_0600_and_replaces_it(svc, operator, tmp_path):
    uuid = account(svc)
    out = tmp_path / "ticket.json"
    out.write_text("old contents\n")
    os.chmod(out, 0o644)
    other = tmp_path / "hard-link"
    os.link(out, other)
    operator.ok("export", uuid, "--out", str(out), "--reason", "ticket 8")
    assert mode(out) == 0o600, f"the export kept mode {oct(mode(out))}"
    assert json.loads(out.read_text())["serviceUserID"] == uuid
    assert other.read_text() == "old contents\n", "the export was written into the old file (its other link sees it)"
    assert not [p.name for p in tmp_path.iterdir() if "authctl" in p.name], "a temporary file was left"


def test_an_export_never_goes_through_a_symbolic_link(svc, operator, tmp_path):
    uuid = account(svc)
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    os.chmod(victim, 0o644)
    link = tmp_path / "export.json"
    link.symlink_to(victim)
    done = operator.run("export", uuid, "--out", str(link))
    assert done.returncode != 0 and "symbolic link" in done.stderr, f"exit {done.returncode}: {done.stderr[-300:]}"
    assert victim.read_text() == "keep me\n" and mode(victim) == 0o644 and link.is_symlink()

    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "linked-dir").symlink_to(real)
    done = operator.run("export", uuid, "--out", str(tmp_path / "linked-dir" / "x.json"))
    assert done.returncode != 0 and "symbolic link" in done.stderr, f"exit {done.returncode}: {done.stderr[-300:]}"
    assert list(real.iterdir()) == [], "the export went through a linked directory"
    assert not [a for a in operator.audits(done) if a.get("outcome") == "exported"], "a refused export was audited as done"
