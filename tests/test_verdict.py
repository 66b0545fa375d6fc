"""Every command's verdict (``kcompat.verdict``): the exit status its findings give, the
same for the CLI, the Spark commands and the GitHub Action's step, which reaches it
without importing the typer app."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kcompat.findings import Finding, Location, Severity
from kcompat.verdict import FailOn, Level, exit_status, severity_of
from tests.conftest import ROOT


def _finding(severity: Severity, accepted: str = "") -> Finding:
    return Finding("field-removed", severity, "gone", Location("A.json"), accepted=accepted)


@pytest.mark.parametrize(
    ("severities", "fail_on", "status"),
    [
        ([Severity.WARNING], None, 0),  # the default threshold: error
        ([Severity.ERROR], None, 1),
        ([Severity.WARNING], FailOn.warning, 1),
        ([Severity.INFO], FailOn.warning, 0),
        ([Severity.INFO], FailOn.info, 1),
        ([Severity.ERROR], FailOn.never, 0),
        ([], FailOn.info, 0),
    ],
)
def test_fail_on_sets_the_threshold(
    severities: list[Severity], fail_on: FailOn | None, status: int
) -> None:
    assert exit_status([_finding(s) for s in severities], fail_on) == status
    assert exit_status(severities, fail_on) == status  # bare severities (the Spark commands)


def test_accepted_findings_never_fail_and_internal_errors_are_3() -> None:
    assert exit_status([_finding(Severity.ERROR, accepted="known")]) == 0
    assert exit_status([_finding(Severity.ERROR)], internal=1) == 3
    assert exit_status([], FailOn.never, internal=2) == 3


def test_the_configured_threshold_applies_without_fail_on() -> None:
    assert exit_status([_finding(Severity.WARNING)], None, FailOn.warning) == 1
    assert exit_status([_finding(Severity.WARNING)], FailOn.error, FailOn.warning) == 0
    assert exit_status([_finding(Severity.ERROR)], None, FailOn.never) == 0  # fail-on = "never"


def test_level_names_the_lowest_severity_shown() -> None:
    assert [severity_of(level) for level in Level] == [
        Severity.ERROR,
        Severity.WARNING,
        Severity.INFO,
    ]


def test_the_action_step_reaches_a_verdict_without_the_typer_app() -> None:
    """``ci/`` computes its exit status from ``kcompat.verdict``: importing the step and
    judging findings loads neither typer nor the app."""
    code = (
        "import sys, kcompat.ci.github, kcompat.verdict as v;"
        "from kcompat.findings import Severity;"
        "assert v.exit_status([Severity.ERROR]) == 1;"
        "print(sorted(m for m in ('typer', 'click', 'kcompat.app') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
