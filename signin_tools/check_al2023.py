"""The provided.al2023 readiness check of the packaged functions in .aws-sam/build: symbol
versions, NEEDED and dlopen()ed libraries against what the image has, the ELF machine, a bad-JSON
event under the official emulator with only the contract's variables, and each zip's size.
scripts/check-al2023 runs `sam build` first and lists the checks in full."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from samcli.yamlhelper import yaml_parse

from .repo import ROOT
from .standins import Emulator, free_port
from .standins.process import run_main

BUILD = ROOT / ".aws-sam" / "build"

# What the provided.al2023 image has (docs/deploy.md, "What the image has", with sources): the
# AL2023 minimal container package set. soname -> package.
IMAGE_LIBS = {
    "libc.so.6": "glibc", "libm.so.6": "glibc", "libdl.so.2": "glibc", "libpthread.so.0": "glibc",
    "librt.so.1": "glibc", "libutil.so.1": "glibc", "ld-linux-x86-64.so.2": "glibc", "ld-linux-aarch64.so.1": "glibc",
    "libgcc_s.so.1": "libgcc", "libstdc++.so.6": "libstdc++",
    "libcrypto.so.3": "openssl-libs", "libssl.so.3": "openssl-libs",
    "libcurl.so.4": "libcurl-minimal", "libnghttp2.so.14": "libnghttp2", "libz.so.1": "zlib",
}
# Newest symbol version each image library provides: glibc 2.34, GCC 11 (libstdc++ 6.0.29:
# GLIBCXX_3.4.29 / CXXABI_1.3.13; libgcc_s has no GCC_12.0.0), OpenSSL 3.0.
MAX_VERSION = {"GLIBC": (2, 34), "GLIBCXX": (3, 4, 29), "CXXABI": (1, 3, 13), "GCC": (11,), "OPENSSL": (3, 0, 99)}
ELF_MACHINE = {"x86_64": "Advanced Micro Devices X86-64", "arm64": "AArch64"}


def run(*cmd: str) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def version_tuple(text: str) -> tuple:
    return tuple(int(p) for p in text.split("."))


def version_needs(path: Path) -> list[tuple[str, str]]:
    """(file, version tag) pairs from .gnu.version_r."""
    out, current = [], None
    for line in run("readelf", "-V", "--wide", str(path)).splitlines():
        m = re.search(r"File: (\S+)", line)
        if m:
            current = m.group(1)
        m = re.search(r"Name: (\S+)\s+Flags", line)
        if m and current:
            out.append((current, m.group(1)))
    return out


def needed(path: Path) -> list[str]:
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", run("readelf", "-d", str(path)))


def dlopen_names(path: Path) -> set[str]:
    """Versioned sonames the binary spells out as strings (dlopen targets such as libcurl.so.4)."""
    data = path.read_bytes()
    names = {m.decode() for m in re.findall(rb"(?<![\w.+-])(lib[\w+-]+\.so\.\d+(?:\.\d+)*)(?=\x00)", data)}
    return names - set(needed(path))


def check_versions(path: Path, problems: list[str]) -> dict[str, str]:
    newest: dict[str, str] = {}
    for lib, tag in version_needs(path):
        if tag.startswith("CURL_"):
            problems.append(f"{path.name}: versioned libcurl reference {tag} from {lib} (libcurl must be dlopen()ed)")
            continue
        m = re.fullmatch(r"(GLIBC|GLIBCXX|CXXABI|GCC|OPENSSL)_(\d+(?:\.\d+)*)", tag)
        if not m:
            problems.append(f"{path.name}: unknown symbol version {tag} (from {lib})")
            continue
        family, ver = m.group(1), version_tuple(m.group(2))
        if ver > MAX_VERSION[family]:
            problems.append(f"{path.name}: needs {tag} from {lib}; provided.al2023 has at most "
                            f"{family}_{'.'.join(map(str, MAX_VERSION[family]))}")
        if family not in newest or ver > version_tuple(newest[family]):
            newest[family] = m.group(2)
    undefined_curl = [l for l in run("objdump", "-T", str(path)).splitlines() if "*UND*" in l and re.search(r"\bcurl_\w+", l)]
    if undefined_curl:
        problems.append(f"{path.name}: links curl functions directly ({len(undefined_curl)} undefined curl_* symbols)")
    return newest


def zip_size(artifact: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "code.zip"
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for f in sorted(artifact.rglob("*")):
                if f.is_file():
                    z.write(f, f.relative_to(artifact))
        return target.stat().st_size


def contract_env(dead_port: int) -> dict:
    """Only the contract's variables, pointing at nothing real (a loopback port nobody listens on)."""
    dead = f"http://127.0.0.1:{dead_port}"
    return {
        "IDENTITY_BUCKET": "readiness-check-bucket",
        "USER_ROLE_ARN": "arn:aws:iam::000000000000:role/readiness-check",
        "APPLE_AUDIENCES": "com.example.readiness",
        "GOOGLE_AUDIENCES": "readiness.apps.googleusercontent.com",
        "APPLE_JWKS_URL": f"{dead}/apple/keys",
        "GOOGLE_JWKS_URL": f"{dead}/google/keys",
        "FIREBASE_PROJECT_ID": "readiness-check",
        "FIREBASE_JWKS_URL": f"{dead}/firebase/keys",
        "FIREBASE_ALLOW_ANONYMOUS": "false",
        "CREDENTIALS_DURATION_SECONDS": "3600",
        "REFRESH_TOKEN_TTL_SECONDS": "2592000",
        "RECENT_AUTH_SECONDS": "600",
        "REFRESH_REUSE_GRACE_SECONDS": "30",
        "AWS_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "AKIAREADINESSCHECK00",
        "AWS_SECRET_ACCESS_KEY": "not-a-secret-readiness-check",
        "AWS_SESSION_TOKEN": "not-a-token",
        "AWS_ENDPOINT_URL": dead,
    }


def emulate(name: str, artifact: Path, problems: list[str], logdir: Path) -> str:
    env = contract_env(free_port())
    if (artifact / "lib").is_dir():
        env["LD_LIBRARY_PATH"] = str(artifact / "lib")  # Lambda puts /var/task/lib on the path
    emu = Emulator(str(artifact / "bootstrap"), env=env, base_env={}, log_path=str(logdir / f"{name}.log"))
    try:
        emu.start(timeout=15)
        status, body = emu.invoke_raw(b"{this is not json", timeout=20)
    except Exception as e:  # noqa: BLE001 - reported, not raised
        problems.append(f"{name}: emulator run failed: {e}\n{emu.logs()[-2000:]}")
        return "failed"
    finally:
        emu.stop()
    try:
        answer = json.loads(body)
    except ValueError:
        answer = None
    ok = (status == 200 and isinstance(answer, dict) and answer.get("success") is False
          and answer.get("error", {}).get("code") == "INVALID_REQUEST" and answer.get("meta", {}).get("requestId"))
    if not ok:
        problems.append(f"{name}: bad-JSON event answered HTTP {status}: {body[:300]!r}\n{emu.logs()[-2000:]}")
        return "failed"
    return "INVALID_REQUEST envelope"


def main() -> int:
    template = yaml_parse((BUILD / "template.yaml").read_text())
    arch = template.get("Parameters", {}).get("Architecture", {}).get("Default", "x86_64")
    functions = {k: v for k, v in template["Resources"].items() if v["Type"] == "AWS::Serverless::Function"}
    if not functions:
        print("check-al2023: no functions in .aws-sam/build/template.yaml", file=sys.stderr)
        return 1
    problems: list[str] = []
    logdir = ROOT / ".tmp" / "check-al2023"
    shutil.rmtree(logdir, ignore_errors=True)
    logdir.mkdir(parents=True)
    for logical_id, res in sorted(functions.items()):
        props = {**template.get("Globals", {}).get("Function", {}), **res["Properties"]}
        artifact = BUILD / props["CodeUri"]
        bootstrap = artifact / "bootstrap"
        if props.get("Runtime") != "provided.al2023" or props.get("Handler") != "bootstrap":
            problems.append(f"{logical_id}: runtime/handler are {props.get('Runtime')}/{props.get('Handler')}")
        if not bootstrap.is_file() or not os.access(bootstrap, os.X_OK):
            problems.append(f"{logical_id}: no executable bootstrap in {artifact}")
            continue
        header = run("readelf", "-h", str(bootstrap))
        if ELF_MACHINE[arch] not in header or "ELF64" not in header:
            problems.append(f"{logical_id}: bootstrap is not a 64-bit {arch} ELF (build on a {arch} host)")
        carried = {p.name: p for p in (artifact / "lib").glob("*.so*")} if (artifact / "lib").is_dir() else {}
        newest = check_versions(bootstrap, problems)
        libs = needed(bootstrap)
        for lib in libs + sorted(dlopen_names(bootstrap)):
            if lib not in IMAGE_LIBS and lib not in carried:
                problems.append(f"{logical_id}: needs {lib}, which neither provided.al2023 nor the zip's lib/ has")
        for name, path in carried.items():  # what we ship must itself load on the image
            check_versions(path, problems)
            for lib in needed(path):
                if lib not in IMAGE_LIBS and lib not in carried:
                    problems.append(f"{logical_id}: lib/{name} needs {lib}, which neither the image nor lib/ has")
        size = zip_size(artifact)
        outcome = emulate(logical_id, artifact, problems, logdir)
        print(f"{logical_id}: zip {size} bytes ({size / 1e6:.2f} MB); bootstrap {bootstrap.stat().st_size} bytes; "
              f"newest versions {json.dumps(newest, sort_keys=True)}; NEEDED {libs}; "
              f"dlopen {sorted(dlopen_names(bootstrap))}; lib/ {sorted(carried) or 'none'}; emulator: {outcome}")
    if problems:
        print("check-al2023: NOT ready for provided.al2023:", file=sys.stderr)
        for p in problems:
            print(f"  - {p}", file=sys.stderr)
        return 1
    print(f"check-al2023: ready for provided.al2023 ({arch})")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
