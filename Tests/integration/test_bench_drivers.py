"""The bench drivers, run in miniature: scripts/bench is not part of CI, so a change elsewhere (a
grant in template.yaml, a stand-in) could break a driver unnoticed until someone measures. This runs
the accounts driver (signin_tools/bench/accounts.py: the functions beside the boto3 peer, the CPU
targets) on the debug executables with a few operations each; it asserts that both sides ran and the
CPU figures were printed, never on the figures. Bounded: 3 sign-ins, 2 sign-ups, 3 refreshes a side,
300 s in all."""
import os
import subprocess
import sys

from conftest import BUILD_DIR, ROOT


def test_the_accounts_driver_runs_both_sides_with_each_functions_grants():
    env = dict(os.environ, SIGNIN_RELEASE_DIR=str(BUILD_DIR), N_SIGNIN="3", N_SIGNUP="2", N_REFRESH="3")
    run = subprocess.run([sys.executable, "-m", "signin_tools.bench.accounts"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    for line in ("sign-in, existing user", "refresh", "python boto3", "CPU per operation", "refresh   swift"):
        assert line in run.stdout, run.stdout


def test_the_apple_transfer_driver_kills_prepare_midway_and_resumes_it():
    """signin_tools/bench/transfer.py (scripts/bench.d/75-apple-transfer) with 40 identities at 20
    requests a second: the first run is killed once Apple answered 20, the second finishes."""
    env = dict(os.environ, SIGNIN_RELEASE_DIR=str(BUILD_DIR), N_ACCOUNTS="40", RATE="20", BATCH="4",
               BASELINE_USERS="5")
    run = subprocess.run([sys.executable, "-m", "signin_tools.bench.transfer"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    for line in ("first run, SIGKILL after 20 answers", "second run (resumed)", "both runs: Apple asked",
                 "floor: 40 requests", "baseline: one user at a time"):
        assert line in run.stdout, run.stdout
