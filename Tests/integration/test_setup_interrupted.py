"""scripts/setup survives being interrupted: a run stopped (SIGKILL) after any step of making a venv is
repaired by the next run, and the venv a `python -m venv` stopped before ensurepip leaves (no pip; the
issue's reproduction) no longer breaks every later command. Offline: the packages are wheels made here
and pip is pointed at them (PIP_NO_INDEX, PIP_FIND_LINKS); each venv lives in a temporary folder."""
import base64
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

from signin_tools.repo import ROOT

PYTHON = shutil.which("python3") or sys.executable  # as scripts/setup: the system's python3
TIMEOUT = 300


def make_wheel(folder: Path, name: str, version: str) -> None:
    """A pure-Python wheel holding the module `name`, as pip expects one (METADATA, WHEEL, RECORD)."""
    dist = f"{name}-{version}"
    files = {f"{name}/__init__.py": f"VERSION = {version!r}\n",
             f"{dist}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{dist}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    files[f"{dist}.dist-info/RECORD"] = "\n".join(record + [f"{dist}.dist-info/RECORD,,"]) + "\n"
    with zipfile.ZipFile(folder / f"{dist}-py3-none-any.whl", "w") as wheel:
        for path, text in files.items():
            wheel.writestr(path, text)


def offline_env(wheels: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "SIGNIN_SETUP_", "VIRTUAL_ENV"))}
    return {**env, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels), **extra}


def run_venvs(venv: Path, wheels: Path, stop_after: str | None = None) -> subprocess.CompletedProcess:
    extra = {"SIGNIN_SETUP_STOP_AFTER": stop_after} if stop_after else {}
    return subprocess.run([PYTHON, "-m", "signin_tools.venvs", str(venv), "setup_probe==1.0"], cwd=ROOT,
                          env=offline_env(wheels, **extra), capture_output=True, text=True, timeout=TIMEOUT)


def imports_probe(venv: Path) -> bool:
    done = subprocess.run([str(venv / "bin" / "python"), "-c", "import setup_probe; print(setup_probe.VERSION)"],
                          capture_output=True, text=True, timeout=60)
    return done.returncode == 0 and done.stdout.strip() == "1.0"


def test_a_run_killed_after_each_step_is_repaired_by_the_next(tmp_path):
    from signin_tools import venvs

    wheels = tmp_path / "wheels"
    wheels.mkdir()
    make_wheel(wheels, "setup_probe", "1.0")
    venv = tmp_path / "venv"
    # Each run is stopped one step later than the last, so each one also repairs what the last left.
    for step in venvs.STEPS:
        stopped = run_venvs(venv, wheels, stop_after=step)
        assert stopped.returncode == -signal.SIGKILL, (step, stopped.stdout, stopped.stderr)
        assert venvs.problems(venv, ["setup_probe==1.0"]) is not None, f"stopped after {step}, yet ready"
    repaired = run_venvs(venv, wheels)
    assert repaired.returncode == 0, repaired.stderr
    assert "making it again" not in repaired.stdout, "a venv pip had finished with should only be stamped"
    assert imports_probe(venv)
    assert venvs.problems(venv, ["setup_probe==1.0"]) is None
    again = run_venvs(venv, wheels)
    assert again.returncode == 0 and again.stdout == "", f"a second run changed something: {again.stdout}"


def test_a_stamp_without_its_packages_is_installed_again(tmp_path):
    from signin_tools import venvs

    wheels = tmp_path / "wheels"
    wheels.mkdir()
    make_wheel(wheels, "setup_probe", "1.0")
    venv = tmp_path / "venv"
    assert run_venvs(venv, wheels).returncode == 0
    site = next((venv / "lib").glob("python3*/site-packages"))
    shutil.rmtree(site / "setup_probe")
    shutil.rmtree(site / "setup_probe-1.0.dist-info")  # as `pip uninstall` leaves it; the stamp stays
    assert (venv / venvs.STAMP).exists() and venvs.problems(venv, ["setup_probe==1.0"]) == "outdated"
    repaired = run_venvs(venv, wheels)
    assert repaired.returncode == 0, repaired.stderr
    assert "installing into" in repaired.stdout and imports_probe(venv)


def fake_ready_venv(venv: Path, requirements: list[str]) -> None:
    """A venv that passes setup's check without installing anything: a python, an importable `pip`
    and the pinned distributions' metadata (fast; the test is about the venv next to it)."""
    subprocess.run([PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "pip").mkdir()
    (site / "pip" / "__init__.py").write_text("")
    for requirement in requirements:
        name, version = requirement.split("[")[0].split("==")[0], requirement.split("==")[1]
        info = site / f"{name.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (venv / ".setup-stamp").write_text(" ".join(requirements) + "\n")


def test_scripts_setup_repairs_a_venv_left_without_pip(tmp_path):
    """The issue's reproduction: `python3 -m venv --without-pip .venv-schemathesis && scripts/setup`
    answered "No module named pip" from then on. Here scripts/setup runs in a copy of the checkout."""
    setup = (ROOT / "scripts" / "setup").read_text()
    version = dict(re.findall(r"^(\w+)_VERSION=(\S+)$", setup, re.M))
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy2(ROOT / "scripts" / "setup", checkout / "scripts" / "setup")
    shutil.copytree(ROOT / "signin_tools", checkout / "signin_tools", ignore=shutil.ignore_patterns("__pycache__"))
    fake_ready_venv(checkout / ".venv", [f"aws-sam-cli=={version['SAM_CLI']}", f"moto[server]=={version['MOTO']}",
                                         f"cryptography=={version['CRYPTOGRAPHY']}", f"pytest=={version['PYTEST']}"])
    fake_ready_venv(checkout / ".venv-checkov", [f"checkov=={version['CHECKOV']}"])
    subprocess.run([PYTHON, "-m", "venv", "--without-pip", str(checkout / ".venv-schemathesis")], check=True, timeout=120)
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    make_wheel(wheels, "schemathesis", version["SCHEMATHESIS"])

    done = subprocess.run([str(checkout / "scripts" / "setup")], env=offline_env(wheels), capture_output=True,
                          text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ".venv-schemathesis has no working python or pip" in done.stdout
    assert "No module named pip" not in done.stdout + done.stderr
    repaired = subprocess.run([str(checkout / ".venv-schemathesis" / "bin" / "python"), "-c", "import pip, schemathesis"],
                              capture_output=True, text=True, timeout=60)
    assert repaired.returncode == 0, repaired.stderr
    again = subprocess.run([str(checkout / "scripts" / "setup")], env=offline_env(wheels), capture_output=True,
                           text=True, timeout=TIMEOUT)
    assert again.returncode == 0 and "installing" not in again.stdout and "making" not in again.stdout, again.stdout
