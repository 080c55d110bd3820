import os
import signal
import subprocess


def stop_process_group(proc) -> None:
    """Stops a stand-in started with start_new_session=True: SIGTERM to its process group, then
    SIGKILL if it has not exited within 5 s. Safe to call twice."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)
