"""``fail-on = "never"`` in the configuration (issue 35.10): the command line, its
``--help`` and the Action accept never; ``kcompat.toml`` and ``[tool.kcompat]`` do too.
Each test runs the command as a user does, on a real repository or folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT
from tests.diff_runner import run_process
from tests.test_config_weakened import change, diff, shelf, weakenings

V2 = ROOT / "specs" / "examples-v2"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("kcompat.toml", 'fail-on = "never"\n'),
        ("pyproject.toml", '[tool.kcompat]\nfail-on = "never"\n'),
        ("kcompat.toml", 'fail-on = " Never "\n'),  # as severities are read: any case
    ],
)
def test_a_configured_never_reports_and_exits_0(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    done = run_process(["diff", str(EXAMPLES), str(V2), "--no-proof"], tmp_path)
    assert done.code == 0, done.stderr
    assert done.stderr == ""
    assert " error " in done.stdout  # the breaks are still reported, only never failing
    # --fail-on on the command line still decides
    strict = run_process(
        ["diff", str(EXAMPLES), str(V2), "--no-proof", "--fail-on", "error"], tmp_path
    )
    assert strict.code == 1


def test_lint_reads_never_from_the_configuration_too(tmp_path: Path) -> None:
    spec = tmp_path / "specs" / "BadRequest.json"
    spec.parent.mkdir()
    spec.write_text(  # a field with no versions: an error
        '{ "apiKey": 90, "type": "request", "name": "BadRequest", "validVersions": "0",\n'
        '  "flexibleVersions": "none", "fields": [ { "name": "A", "type": "int32" } ] }\n',
        encoding="utf-8",
    )
    assert run_process(["lint", "specs"], tmp_path).code == 1
    (tmp_path / "kcompat.toml").write_text('fail-on = "never"\n', encoding="utf-8")
    done = run_process(["lint", "specs"], tmp_path)
    assert done.code == 0, done.stdout + done.stderr
    assert "error" in done.stdout


def test_a_change_to_never_is_a_weakening_that_names_what_stops_failing(tmp_path: Path) -> None:
    """A pull request that sets fail-on = "never" passes, in the open: config-weakened."""
    code, report = diff(change(tmp_path, 'fail-on = "never"\n', before='fail-on = "error"\n'))
    assert code == 0
    assert weakenings(report) == [
        'fail-on = "never" (was "error"): 1 finding of this comparison stops failing'
    ]
    (retyped,) = [f for f in report["findings"] if f["rule"] == "field-type-changed"]
    assert retyped["weakened_by"] == "fail-on"
    code, report = diff(
        change(
            tmp_path / "kept",
            'fail-on = "never"\n',
            before='fail-on = "never"\n',
            head=shelf("int64"),
        )
    )
    assert code == 0 and weakenings(report) == []


def test_a_wrong_value_names_never_among_the_choices(tmp_path: Path) -> None:
    (tmp_path / "kcompat.toml").write_text('fail-on = "nope"\n', encoding="utf-8")
    done = run_process(["diff", str(EXAMPLES), str(V2)], tmp_path)
    assert done.code == 2
    assert done.stderr == (
        f"kcompat: error: {tmp_path / 'kcompat.toml'}:1: fail-on must be error, warning, info "
        "or never, not 'nope'\n"
    )
