"""scripts/setup's virtual environments, made so that an interrupted run never leaves one that breaks
the next (docs/decisions/tests-and-tools.md, "Interrupted setup").

    python3 -m signin_tools.venvs DIR [--upgrade-pip] REQUIREMENT...

Runs with the system's python3 and the standard library only (the venv may not exist yet). A venv is
ready when its stamp lists exactly these requirements, its python runs and imports pip, and every
pinned `name==version` is installed at that version; then nothing is done. Otherwise:

- a venv an earlier run left half-made is deleted and made again: one still marked `.setup-incomplete`
  (the run stopped while creating it or installing into it), or one whose python does not run or has
  no pip (`python -m venv` stopped before ensurepip, or an interpreter upgrade left it dangling);
- a complete venv whose stamp or packages do not match (new pins, a package removed by hand) gets
  `pip install` of the requirements, marked incomplete while pip runs.

Each step leaves the marker until the stamp is written, so a run stopped at any moment (SIGKILL
included) is repaired by the next. `SIGNIN_SETUP_STOP_AFTER=STEP` (a test's hook) kills the run
with SIGKILL right after STEP, one of `STEPS`.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

MARKER = ".setup-incomplete"
STAMP = ".setup-stamp"
STEPS = ("marked", "venv", "pip", "installed", "unmarked")
PIP = ("-m", "pip", "install", "-q", "--disable-pip-version-check")
CHECK_TIMEOUT = 120
# What the venv's own python reports about itself: pip importable, each pinned distribution's version.
PROBE = """import importlib.metadata as m, json, sys
import pip
found = {}
for name in sys.argv[1:]:
    try:
        found[name] = m.version(name)
    except m.PackageNotFoundError:
        found[name] = None
print(json.dumps(found))
"""


def say(text: str) -> None:
    print(f"setup: {text}", flush=True)


def step_done(step: str) -> None:
    if os.environ.get("SIGNIN_SETUP_STOP_AFTER") == step:
        os.kill(os.getpid(), signal.SIGKILL)


def pins(requirements: list[str]) -> dict[str, str]:
    """`name==version` requirements by distribution name (extras dropped); others are not checked."""
    found = {}
    for requirement in requirements:
        name, sep, version = requirement.partition("==")
        if sep:
            found[name.split("[")[0].strip()] = version.strip()
    return found


def problems(venv: Path, requirements: list[str]) -> str | None:
    """Why `venv` is not ready for `requirements`, or None."""
    python = venv / "bin" / "python"
    try:
        probe = subprocess.run([str(python), "-c", PROBE, *pins(requirements)], capture_output=True, text=True,
                               timeout=CHECK_TIMEOUT)
    except (OSError, subprocess.SubprocessError):
        return "broken"
    if probe.returncode != 0:
        return "broken"
    stamp = venv / STAMP
    if not stamp.is_file() or stamp.read_text().strip() != " ".join(requirements):
        return "outdated"
    installed = json.loads(probe.stdout)
    if any(installed.get(name) != version for name, version in pins(requirements).items()):
        return "outdated"
    return None


def ensure(venv: Path, requirements: list[str], upgrade_pip: bool = False, python: str = sys.executable) -> bool:
    """Makes `venv` ready for `requirements`; True when something had to be done."""
    if (venv / MARKER).exists():
        say(f"{venv} was left half-made by an interrupted run: making it again")
        shutil.rmtree(venv)
    elif venv.exists():
        problem = problems(venv, requirements)
        if problem is None:
            return False
        if problem == "broken":
            say(f"{venv} has no working python or pip (an interrupted run?): making it again")
            shutil.rmtree(venv)
    fresh = not venv.exists()
    venv.mkdir(parents=True, exist_ok=True)
    (venv / MARKER).write_text("a run of scripts/setup is making this venv; if none is, the next run remakes it\n")
    step_done("marked")
    if fresh:
        say(f"creating {venv}")
        subprocess.run([python, "-m", "venv", "--without-pip", str(venv)], check=True)
        step_done("venv")
        subprocess.run([str(venv / "bin" / "python"), "-m", "ensurepip", "--upgrade", "--default-pip"],
                       check=True, stdout=subprocess.DEVNULL)
    step_done("pip")
    say(f"installing into {venv}: {' '.join(requirements)}")
    if upgrade_pip:
        subprocess.run([str(venv / "bin" / "python"), *PIP, "--upgrade", "pip"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([str(venv / "bin" / "python"), *PIP, *requirements], check=True)
    step_done("installed")
    # pip has finished: what is installed is whole. Without the marker and before the stamp, a run
    # stopped here is "outdated" to the next, which only asks pip again.
    (venv / MARKER).unlink()
    step_done("unmarked")
    partial = venv / f"{STAMP}.partial"
    partial.write_text(" ".join(requirements) + "\n")
    partial.replace(venv / STAMP)
    return True


def main(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python3 -m signin_tools.venvs", description=__doc__.split("\n\n")[0])
    ap.add_argument("venv", type=Path)
    ap.add_argument("--upgrade-pip", action="store_true", help="upgrade pip itself before installing")
    ap.add_argument("requirements", nargs="+")
    args = ap.parse_args(argv)
    try:
        ensure(args.venv, args.requirements, args.upgrade_pip)
    except subprocess.CalledProcessError as failed:
        print(f"setup: {failed.cmd[0]} failed ({failed.returncode}); run scripts/setup again to resume", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
