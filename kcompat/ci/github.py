"""The GitHub Action's step: diff a pull request against its base and report it where
reviewers look.

``action.yml`` runs ``python -I -m kcompat.ci.github --repo "$GITHUB_WORKSPACE"`` from a
venv outside the workspace, in ``RUNNER_TEMP``: nothing of the pull request's checkout is
ever imported (``-I``: no working directory, no ``PYTHON*`` variables on ``sys.path``).
The step then moves into the workspace to read it as data. From GitHub's environment
(:mod:`kcompat.ci.environment`) it:

1. skips the check when the pull request carries the skip label (an expected break),
   and turns an earlier comment of its own into "skipped, by whom, with which label";
2. runs ``kcompat diff BASE HEAD --merge-base`` with the ``args`` input parsed by the diff
   command's own parser (:mod:`kcompat.ci.args`), and with ``lint: true`` lints the
   specs the pull request changed;
3. writes annotations within GitHub's limits (10 per level and step: 9 and one that
   counts the rest, per level);
4. appends the report to the job summary and, with ``comment: true``, posts or updates
   one comment (:mod:`kcompat.ci.comment`): the commits and every location linked, and
   how to accept a break. A pull request that changes no spec gets no new comment; an
   earlier one is updated to say so;
5. sets the outputs ``errors``, ``warnings``, ``infos``, ``skipped`` and ``exit-code``,
   and exits 1 when a finding reaches ``fail-on``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kcompat.ci.api import ApiError, GitHubApi
from kcompat.ci.args import DiffSettings, parse_args
from kcompat.ci.comment import (
    CHANGES,
    HOW_TO_ACCEPT,
    LINT,
    MARKER,
    NO_LONGER_APPLIES,
    REPORT,
    SUMMARY_BUDGET,
    Section,
    accepted_section,
    assemble,
    comment_body,
    commit_link,
    fine_now,
    fixed,
    how_to_accept,
    skipped,
)
from kcompat.ci.environment import Inputs, RunnerFiles, isolate_imports, take_token
from kcompat.ci.preflight import PULL_REQUEST_TARGET
from kcompat.ci.workflow import append_summary, command, set_outputs
from kcompat.errors import UsageError, one_line
from kcompat.findings import Finding, Severity
from kcompat.provenance import UNPINNED, Provenance
from kcompat.report.document import Report
from kcompat.report.links import SourceLinks, github_repository_url
from kcompat.report.markdown import escape, render_markdown

if TYPE_CHECKING:
    from kcompat.diff.run import Comparison

#: Where the annotations send a reader for the rest.
_REST = "The job summary lists them all."


@dataclass(frozen=True)
class Checked:
    """What the check found: the diff's report, the lint's (with ``lint: true``), the
    commits compared and the exit status."""

    diff: Report
    lint: Report | None
    links: SourceLinks | None
    base_sha: str
    head_sha: str
    code: int
    changes: tuple[str, str] = ("", "")  # what the change does to the protocol: comment, summary

    @property
    def findings(self) -> list[Finding]:
        """Every finding, for annotations: errors first, across diff and lint."""
        found = (*self.diff.findings, *(self.lint.findings if self.lint else ()))
        return Report("diff", tuple(found), 0).by_severity()

    def count(self, severity: Severity) -> int:
        return self.diff.count(severity) + (self.lint.count(severity) if self.lint else 0)

    @property
    def nothing_changed(self) -> bool:
        """No spec changed (and, so, nothing to lint): nothing new to say in a comment."""
        return bool(self.diff.nothing_compared()) and not (self.lint and self.lint.findings)


def main(argv: Sequence[str] | None = None) -> int:
    """One run of the step; returns the exit status."""
    try:
        repo = _repo_argument(list(sys.argv[1:] if argv is None else argv))
        inputs = Inputs.from_environment(os.environ)
    except UsageError as err:
        return _refuse(Inputs.runner_files(os.environ), str(err))
    if inputs.event.name == "pull_request_target":  # action.yml stops it before (preflight)
        return _refuse(inputs, PULL_REQUEST_TARGET)
    take_token(os.environ)  # read once; no git process the step starts inherits it
    isolate_imports(sys.path)
    try:
        os.chdir(repo)
    except OSError as err:
        print(command("error", f"--repo {repo}: {err.strerror or err}"))
        return 2
    try:
        return run_step(inputs)
    except Exception as err:
        if os.environ.get("KCOMPAT_DEBUG"):
            raise
        text = f"internal error: {type(err).__name__}: {one_line(err)} (please report it)"
        print(command("error", text))
        return 3


def _repo_argument(argv: list[str]) -> Path:
    """``--repo DIR`` (the workspace), else ``GITHUB_WORKSPACE``, else here."""
    if argv and argv[0].startswith("--repo="):
        argv = ["--repo", argv[0].partition("=")[2], *argv[1:]]
    if len(argv) == 2 and argv[0] == "--repo" and argv[1]:
        return Path(argv[1]).resolve()
    if argv:
        raise UsageError(f"kcompat.ci.github takes --repo DIR only, not {' '.join(argv)!r}")
    return Path(os.environ.get("GITHUB_WORKSPACE") or ".").resolve()


def run_step(inputs: Inputs) -> int:
    try:
        settings = parse_args(inputs.args)
        settings = _with_fail_on(settings, inputs.fail_on)
    except UsageError as err:
        return _refuse(inputs, str(err))
    api = GitHubApi(inputs.api_url, inputs.repository, inputs.token) if _can_call(inputs) else None
    if inputs.skip_label and inputs.skip_label in _labels(inputs, api):
        return _skip(inputs, api)
    from kcompat.config import ConfigError

    try:
        checked = check(settings, inputs)
    except (UsageError, ConfigError) as err:
        return _refuse(inputs, str(err))
    print("\n".join(_annotations(checked)))
    rest = "the full report is in the job summary" if inputs.summary else "the job log"
    # the summary is where the annotations send a reader for every finding: those first
    summary = _sections(checked, inputs, "", checked.changes[1], findings_first=True)
    append_summary(inputs.summary, assemble(summary, SUMMARY_BUDGET))
    if inputs.comment:
        body = comment_body(_sections(checked, inputs, rest, checked.changes[0]))
        if checked.nothing_changed:
            base = commit_link(checked.links, checked.base_sha)
            body = f"{MARKER}\n" + fine_now(base, commit_link(checked.links, checked.head_sha))
        _publish(inputs, api, body, create=not checked.nothing_changed)
    set_outputs(
        inputs.output,
        {
            "skipped": "false",
            "errors": str(checked.count(Severity.ERROR)),
            "warnings": str(checked.count(Severity.WARNING)),
            "infos": str(checked.count(Severity.INFO)),
            "exit-code": str(checked.code),
        },
    )
    return checked.code


def _with_fail_on(settings: DiffSettings, fail_on: str) -> DiffSettings:
    """The ``fail-on`` input and ``--fail-on`` in ``args`` are one setting."""
    from dataclasses import replace

    from kcompat.verdict import FailOn

    if not fail_on:
        return settings
    chosen = FailOn.parse(fail_on, "the fail-on input")
    if settings.fail_on is not None and settings.fail_on != chosen:
        raise UsageError(
            f"the fail-on input says {fail_on} and args say --fail-on {settings.fail_on.value}: "
            "keep one"
        )
    return replace(settings, fail_on_input=chosen)


def check(settings: DiffSettings, inputs: Inputs) -> Checked:
    """The diff (and lint) of the pull request, as reports, with the exit status."""
    from kcompat.app import Sides
    from kcompat.diff.run import run_diff
    from kcompat.verdict import exit_status, severity_of

    sides = Sides(base=inputs.base, head="HEAD", merge_base=True)
    result = run_diff(sides.request(settings.run_options()))
    if result.note:
        print(command("notice", result.note))
    level = severity_of(settings.level)
    diff = Report.of(
        "diff",
        result.outcome,
        files=result.files,
        level=level,
        base=result.base_label,
        head=result.head_label,
        released=result.released,
    )
    code = exit_status(result.outcome.findings, settings.fail_on, result.fail_on)
    lint = None
    if inputs.lint and result.changed:
        lint, lint_code = _lint(result.changed, settings, result.head_sha)
        code = max(code, lint_code)
    links = None
    if inputs.repository and result.head_sha:
        url = github_repository_url(inputs.server_url, inputs.repository)
        links = SourceLinks(url, result.base_sha, result.head_sha)
    changes = _protocol_changes(inputs, result.comparison)
    return Checked(diff, lint, links, result.base_sha, result.head_sha, code, changes)


def _protocol_changes(inputs: Inputs, comparison: Comparison | None) -> tuple[str, str]:
    """ "What this change does to the protocol" (``kcompat changelog`` of the comparison
    the diff read): the comment's section (within its own budget) and the summary's."""
    from kcompat.changelog.pull_request import protocol_sections

    if comparison is None:
        return "", ""
    where = "the job summary" if inputs.summary is not None else "the job log"
    return protocol_sections(comparison, f"see {where}")


def _lint(changed: Sequence[str], settings: DiffSettings, head: str) -> tuple[Report | None, int]:
    """``kcompat lint`` on the specs the pull request changed, as its head commit holds
    them (never the checkout's files: a committed link would be followed there)."""
    from kcompat.lint.committed import lint_committed
    from kcompat.lint.run import LintRequest
    from kcompat.sources.git import GitRepo
    from kcompat.verdict import exit_status, severity_of

    repo = GitRepo.around(None, required=True)
    assert repo is not None
    request = LintRequest(tuple(changed), settings.config_choice())
    result = lint_committed(request, repo, head or "HEAD")
    if result.outcome is None:
        return None, 0
    report = Report.of(
        "lint", result.outcome, files=result.files, level=severity_of(settings.level)
    )
    return report, exit_status(result.outcome.findings, settings.fail_on, result.config.fail_on)


def _annotations(checked: Checked) -> list[str]:
    from kcompat.report.github import PER_LEVEL, annotation_lines, summary_line

    lines = annotation_lines(checked.findings, limit=PER_LEVEL, rest=_REST)
    lines.append(summary_line(checked.diff))
    if checked.lint is not None:
        lines.append(summary_line(checked.lint))
    return lines


def _sections(
    checked: Checked, inputs: Inputs, rest: str, changes: str, *, findings_first: bool = False
) -> list[Section]:
    """The report's sections, by priority: how to accept (short), what the change does to
    the protocol (within its own budget), the diff's findings, the lint's; with
    ``findings_first`` the findings come before the protocol section."""
    sections = []
    # A config-weakened warning is the change's own acceptance, in the open: not a break
    # to accept again.
    breaks = [
        f
        for f in checked.diff.counted
        if f.severity >= Severity.WARNING and f.rule != "config-weakened"
    ]
    if breaks:
        sections.append(fixed(HOW_TO_ACCEPT, how_to_accept(breaks, inputs.skip_label)))
    sections.append(accepted_section(checked.diff))  # before the findings take the budget
    pages = inputs.provenance
    findings = [_report_section(REPORT, checked.diff, rest, checked.links, pages)]
    if checked.lint is not None:
        findings.append(_report_section(LINT, checked.lint, rest, checked.links, pages))
    protocol = [fixed(CHANGES, changes)] if changes else []
    return [*sections, *(findings + protocol if findings_first else protocol + findings)]


def _report_section(
    place: int,
    report: Report,
    rest: str,
    links: SourceLinks | None,
    pages: Provenance = UNPINNED,
) -> Section:
    def render(budget: int) -> str:
        text = render_markdown(
            report, budget=budget, rest=rest, links=links, config=False, pages=pages
        )
        if len(text) > budget:  # the renderer's estimate ran over: ask for that much less
            text = render_markdown(
                report,
                budget=2 * budget - len(text) - 200,
                rest=rest,
                links=links,
                config=False,
                pages=pages,
            )
        return text

    return Section(place, render)


def _can_call(inputs: Inputs) -> bool:
    return bool(inputs.token and inputs.repository and inputs.event.number is not None)


def _labels(inputs: Inputs, api: GitHubApi | None) -> tuple[str, ...]:
    """The pull request's labels as they are now (a re-run reuses the old event), else as
    the event says."""
    if api is not None and inputs.event.number is not None:
        try:
            return api.labels(inputs.event.number)
        except ApiError:
            pass
    return inputs.event.labels


def _skip(inputs: Inputs, api: GitHubApi | None) -> int:
    event = inputs.event
    who = event.sender if event.action == "labeled" and event.label == inputs.skip_label else ""
    links = None
    if inputs.repository:
        links = SourceLinks(github_repository_url(inputs.server_url, inputs.repository), "", "")
    text = skipped(inputs.skip_label, who, commit_link(links, event.head_sha))
    # the outputs first: nothing said to GitHub's API below can leave them unset
    set_outputs(
        inputs.output,
        {"skipped": "true", "errors": "0", "warnings": "0", "infos": "0", "exit-code": "0"},
    )
    append_summary(inputs.summary, text)
    if inputs.comment:
        _publish(inputs, api, f"{MARKER}\n{text}\n\n{NO_LONGER_APPLIES}", create=False)
    print(f"kcompat: skipped (the pull request has the label {inputs.skip_label!r})")
    return 0


def _publish(inputs: Inputs, api: GitHubApi | None, body: str, *, create: bool) -> None:
    """Update kcompat's own comment (marker and author), or post one when ``create``."""
    number = inputs.event.number
    if api is None or number is None:
        print(command("warning", "no pull request or token: the comment was not posted"))
        return
    try:
        existing = api.own_comment(number, MARKER, api.login())
        if existing is not None:
            api.update(existing, body)
        elif create:
            api.post(number, body)
    except ApiError as err:
        why = (
            " (a pull request from a fork gets a read-only token: the job summary has the report)"
            if err.status == 403
            else ""
        )
        print(command("warning", f"the comment was not posted: {err}{why}"))


def _refuse(inputs: Inputs | RunnerFiles, message: str) -> int:
    """Bad input (exit 2): one line in the log, the same in the summary."""
    print(command("error", message))
    append_summary(inputs.summary, f"### kcompat compatibility check\n\n❌ {escape(message)}\n")
    set_outputs(inputs.output, {"skipped": "false", "exit-code": "2"})
    return 2


if __name__ == "__main__":
    sys.exit(main())
