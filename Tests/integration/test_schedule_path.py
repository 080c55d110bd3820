"""Issue 18, defect 7: auth-link runs the scheduled deletion work only when invoked through the
schedule's alias (`scheduled`). The emulator builds the invoked function ARN from
AWS_LAMBDA_FUNCTION_NAME, so an emulator named `auth-link:scheduled` is EventBridge's path
(`arn:aws:lambda:...:function:auth-link:scheduled`) and one named `auth-link` is everyone else's."""
import re

from service_support import code, ok, scheduled_event
from signin_tools.standins.local import SCHEDULED


def test_a_scheduled_event_is_run_only_through_the_schedule_alias(svc):
    unqualified = svc.start("auth-link")
    answer = unqualified.invoke(scheduled_event())
    assert code(answer) == "INVALID_REQUEST", answer
    assert "scheduled" in answer["error"]["message"]
    summary = ok(svc.start(SCHEDULED).invoke(scheduled_event()))
    assert set(summary) == {"purged", "pending"}


def test_the_refused_run_reads_nothing(svc):
    emu = svc.start("auth-link", AWS_LAMBDA_LOG_LEVEL="DEBUG")
    code(emu.invoke(scheduled_event()))
    counts = re.findall(r"network requests=(\d+)", emu.logs())
    assert counts == ["0"], f"the refused run sent requests: {counts}"
