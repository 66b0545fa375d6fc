"""The GitHub Action's step: diff a pull request against its base and report it where
reviewers look.

``action.yml`` runs ``python -m kcompat.ci.github``. From GitHub's environment
(``GITHUB_EVENT_PATH``, ``GITHUB_STEP_SUMMARY``, ``GITHUB_OUTPUT``, ``GITHUB_TOKEN``,
``GITHUB_REPOSITORY``, ``GITHUB_API_URL``) and the action's inputs (``KCOMPAT_*``) it:

1. skips the check when the pull request carries the skip label (an expected break);
2. runs ``kcompat diff BASE HEAD --merge-base`` (BASE: the pull request's base branch);
3. writes annotations within GitHub's limits (10 errors and 10 warnings shown per step:
   errors first, then one annotation that counts the rest);
4. appends the Markdown report to the job summary, and optionally posts (or updates) one
   pull-request comment, kept under GitHub's 65,536-character limit;
5. sets the outputs ``errors``, ``warnings``, ``infos``, ``skipped`` and ``exit-code``,
   and exits 1 when a finding reaches ``fail-on``.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The comment kcompat updates instead of adding another one on every push.
MARKER = "<!-- kcompat -->"


@dataclass(frozen=True)
class Inputs:
    """The action's inputs and what GitHub tells the step."""

    base: str
    fail_on: str  # "" leaves it to the configuration
    comment: bool
    skip_label: str
    extra: tuple[str, ...]
    event: Mapping[str, Any]
    summary: Path | None
    output: Path | None
    token: str
    repository: str
    api_url: str

    @staticmethod
    def from_environment(env: Mapping[str, str]) -> Inputs:
        event_path = env.get("GITHUB_EVENT_PATH", "")
        event: dict[str, Any] = {}
        if event_path and Path(event_path).is_file():
            event = json.loads(Path(event_path).read_text(encoding="utf-8"))
        base = env.get("KCOMPAT_BASE", "").strip()
        if not base:
            ref = env.get("GITHUB_BASE_REF") or _dig(event, "pull_request", "base", "ref") or ""
            base = f"origin/{ref}" if ref else "origin/HEAD"
        return Inputs(
            base=base,
            fail_on=env.get("KCOMPAT_FAIL_ON", "").strip(),
            comment=env.get("KCOMPAT_COMMENT", "false").strip().lower() == "true",
            skip_label=env.get("KCOMPAT_SKIP_LABEL", "kcompat: expected break").strip(),
            extra=tuple(env.get("KCOMPAT_ARGS", "").split()),
            event=event,
            summary=Path(env["GITHUB_STEP_SUMMARY"]) if env.get("GITHUB_STEP_SUMMARY") else None,
            output=Path(env["GITHUB_OUTPUT"]) if env.get("GITHUB_OUTPUT") else None,
            token=env.get("GITHUB_TOKEN", ""),
            repository=env.get("GITHUB_REPOSITORY", ""),
            api_url=env.get("GITHUB_API_URL", "https://api.github.com").rstrip("/"),
        )

    @property
    def pull_request(self) -> int | None:
        number = _dig(self.event, "pull_request", "number")
        return int(number) if isinstance(number, int) else None

    @property
    def labels(self) -> list[str]:
        labels = _dig(self.event, "pull_request", "labels") or []
        return [str(label.get("name", "")) for label in labels if isinstance(label, dict)]


def _dig(data: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, Mapping):
            return None
        data = data.get(key)  # type: ignore[assignment]
    return data


def main(env: Mapping[str, str] | None = None) -> int:
    """One run of the step; returns the exit status."""
    inputs = Inputs.from_environment(os.environ if env is None else env)
    if inputs.fail_on and inputs.fail_on not in ("error", "warning", "info", "never"):
        print(f"::error title=kcompat::fail-on must be error, warning, info or never, "
              f"not {inputs.fail_on!r}")  # fmt: skip
        return 2
    if inputs.skip_label and inputs.skip_label in inputs.labels:
        text = (
            f"### kcompat compatibility check\n\n⏭️ Skipped: the pull request has the label "
            f"`{inputs.skip_label}` (an expected break).\n"
        )
        _append(inputs.summary, text)
        _outputs(inputs.output, {"skipped": "true", "errors": "0", "warnings": "0",
                                 "infos": "0", "exit-code": "0"})  # fmt: skip
        print(f"kcompat: skipped (label {inputs.skip_label!r})")
        return 0
    return _check(inputs)


def _check(inputs: Inputs) -> int:
    from kcompat.app import FailOn, exit_status
    from kcompat.changelog.pull_request import protocol_sections
    from kcompat.diff.run import DiffRequest, run_diff
    from kcompat.errors import UsageError
    from kcompat.findings import Severity
    from kcompat.report.document import Report
    from kcompat.report.github import PER_LEVEL, escape, render_github
    from kcompat.report.markdown import BUDGET, render_markdown
    from kcompat.report.markdown import escape as markdown_text

    released = _option(inputs.extra, "--released")
    try:
        result = run_diff(
            DiffRequest(base=inputs.base, head="HEAD", merge_base=True, released=released)
        )
    except UsageError as err:
        print(f"::error title=kcompat::{escape(str(err))}")
        _append(
            inputs.summary, f"### kcompat compatibility check\n\n❌ {markdown_text(str(err))}\n"
        )
        _outputs(inputs.output, {"skipped": "false", "exit-code": "2"})
        return 2
    if result.note:
        print(f"::notice title=kcompat::{escape(result.note)}")
    report = Report.of(
        "diff",
        result.outcome,
        files=result.files,
        base=result.base_label,
        head=result.head_label,
        released=result.released,
    )
    print(render_github(report, limit=PER_LEVEL, rest="The job summary lists them all."))
    where = "the job summary" if inputs.summary is not None else "the job log"
    changes, all_changes = protocol_sections(inputs.base, released, f"see {where}")
    budget = BUDGET - len(changes) - 2
    markdown = render_markdown(report, budget=budget, rest=f"the full report is in {where}")
    _append(inputs.summary, render_markdown(report, budget=1_000_000) + f"\n\n{all_changes}\n")
    if inputs.comment:
        _comment(inputs, f"{MARKER}\n{markdown}\n\n{changes}")
    fail_on = FailOn(inputs.fail_on) if inputs.fail_on else None  # else the configuration's
    code = exit_status(result.outcome.findings, fail_on, result.fail_on)
    _outputs(
        inputs.output,
        {
            "skipped": "false",
            "errors": str(report.count(Severity.ERROR)),
            "warnings": str(report.count(Severity.WARNING)),
            "infos": str(report.count(Severity.INFO)),
            "exit-code": str(code),
        },
    )
    return code


def _option(args: tuple[str, ...], name: str) -> str | None:
    for index, arg in enumerate(args):
        if arg == name and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith(name + "="):
            return arg.partition("=")[2]
    return None


def _append(path: Path | None, text: str) -> None:
    if path is not None:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(text)


def _outputs(path: Path | None, values: Mapping[str, str]) -> None:
    if path is not None:
        with path.open("a", encoding="utf-8") as handle:
            for key, value in values.items():
                handle.write(f"{key}={value}\n")


def _comment(inputs: Inputs, body: str) -> None:
    """Update kcompat's comment on the pull request, or post the first one."""
    number = inputs.pull_request
    if number is None or not inputs.repository or not inputs.token:
        print("::warning title=kcompat::no pull request or token: the comment was not posted")
        return
    base = f"{inputs.api_url}/repos/{inputs.repository}"
    try:
        existing = _our_comment(inputs, f"{base}/issues/{number}/comments")
        if existing is not None:
            _api(inputs, "PATCH", f"{base}/issues/comments/{existing}", {"body": body})
        else:
            _api(inputs, "POST", f"{base}/issues/{number}/comments", {"body": body})
    except (urllib.error.URLError, OSError, ValueError) as err:
        from kcompat.report.github import escape

        print(f"::warning title=kcompat::the comment was not posted: {escape(str(err))}")


def _our_comment(inputs: Inputs, url: str) -> int | None:
    """The id of the comment kcompat posted before (it starts with :data:`MARKER`)."""
    for page in range(1, 101):
        comments = _api(inputs, "GET", f"{url}?per_page=100&page={page}")
        if not comments:
            return None
        for comment in comments:
            if str(comment.get("body", "")).startswith(MARKER):
                return int(comment["id"])
    return None


def _api(inputs: Inputs, method: str, url: str, payload: Any = None) -> Any:
    data = json.dumps(payload).encode("utf-8") if payload is not None else None
    request = urllib.request.Request(
        url,
        data=data,
        method=method,
        headers={
            "Authorization": f"Bearer {inputs.token}",
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "Content-Type": "application/json",
            "User-Agent": "kcompat-action",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode("utf-8")
    return json.loads(text) if text else None


if __name__ == "__main__":
    sys.exit(main())
