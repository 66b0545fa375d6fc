"""What GitHub hands the Action's step: the event that started the run, the runner's
files, and the action's inputs (``KCOMPAT_*``, set from ``action.yml``).

Read once, into frozen values, so the rest of the step never looks at the environment
again. The token is kept out of ``repr`` and out of the environment of every process the
step starts (git has no use for it).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcompat.bounded import read_capped
from kcompat.errors import UsageError
from kcompat.provenance import REPOSITORY, Provenance, installed, usable_ref

#: The label that skips the check unless the ``skip-label`` input names another.
SKIP_LABEL = "kcompat: expected break"
#: GitHub's event files are a few KB; a bound keeps a broken one from costing memory.
MAX_EVENT_BYTES = 25 * 1024 * 1024


def dig(data: Any, *keys: str) -> Any:
    """``data[k1][k2]...``, or None where a level is missing or not an object."""
    for key in keys:
        if not isinstance(data, Mapping):
            return None
        data = data.get(key)
    return data


@dataclass(frozen=True)
class Event:
    """The webhook payload of the run (``GITHUB_EVENT_PATH``) and its name."""

    payload: Mapping[str, Any] = field(default_factory=dict)
    name: str = "pull_request"

    @property
    def number(self) -> int | None:
        number = dig(self.payload, "pull_request", "number")
        return number if isinstance(number, int) else None

    @property
    def labels(self) -> tuple[str, ...]:
        labels = dig(self.payload, "pull_request", "labels") or []
        return tuple(str(label.get("name", "")) for label in labels if isinstance(label, dict))

    @property
    def action(self) -> str:
        """``opened``, ``synchronize``, ``labeled``, ..."""
        return str(self.payload.get("action") or "")

    @property
    def label(self) -> str:
        """The label a ``labeled`` or ``unlabeled`` event is about."""
        return str(dig(self.payload, "label", "name") or "")

    @property
    def sender(self) -> str:
        """Who caused the event (added the label, pushed the commits)."""
        return str(dig(self.payload, "sender", "login") or "")

    @property
    def head_sha(self) -> str:
        """The pull request's last commit (the checkout may be its merge commit)."""
        return str(dig(self.payload, "pull_request", "head", "sha") or "")

    @property
    def base_ref(self) -> str:
        return str(dig(self.payload, "pull_request", "base", "ref") or "")


def read_event(path: str, name: str) -> Event:
    """The event file; a missing path is an empty event (a run outside a pull request)."""
    if not path:
        return Event({}, name)
    try:
        capped = read_capped(Path(path), MAX_EVENT_BYTES)
        if capped.over:
            raise ValueError(f"over {MAX_EVENT_BYTES // (1024 * 1024)} MiB")
        payload = json.loads(capped.data)
    except (OSError, ValueError) as err:
        raise UsageError(f"{path}: cannot read GitHub's event file ({err})") from None
    return Event(payload if isinstance(payload, dict) else {}, name)


def flag(env: Mapping[str, str], name: str, input_name: str, default: bool) -> bool:
    """A true/false input; anything else is a usage error naming the input."""
    text = env.get(name, "").strip().lower()
    if not text:
        return default
    if text not in ("true", "false"):
        raise UsageError(f"the {input_name} input must be true or false, not {text!r}")
    return text == "true"


@dataclass(frozen=True)
class RunnerFiles:
    """Where the step writes: the job summary and its outputs (known even when the inputs
    are not valid, so a refusal is written there too)."""

    summary: Path | None
    output: Path | None


@dataclass(frozen=True)
class Inputs:
    """The action's inputs and what the runner tells the step."""

    base: str  # the revision to compare with
    fail_on: str  # "" leaves it to args, else the configuration
    comment: bool
    skip_label: str
    args: str  # extra diff options, parsed by the CLI's own parser (kcompat.ci.args)
    lint: bool
    event: Event
    summary: Path | None
    output: Path | None
    repository: str
    api_url: str
    server_url: str
    token: str = field(default="", repr=False)
    #: the kcompat the workflow pinned: rule pages are linked at that ref
    provenance: Provenance = field(default_factory=Provenance)

    @staticmethod
    def from_environment(env: Mapping[str, str]) -> Inputs:
        event = read_event(env.get("GITHUB_EVENT_PATH", ""), env.get("GITHUB_EVENT_NAME", ""))
        base = env.get("KCOMPAT_BASE", "").strip()
        if not base:
            ref = env.get("GITHUB_BASE_REF") or event.base_ref
            base = f"origin/{ref}" if ref else "origin/HEAD"
        return Inputs(
            base=base,
            fail_on=env.get("KCOMPAT_FAIL_ON", "").strip().lower(),
            comment=flag(env, "KCOMPAT_COMMENT", "comment", False),
            skip_label=env.get("KCOMPAT_SKIP_LABEL", SKIP_LABEL).strip(),
            args=env.get("KCOMPAT_ARGS", ""),
            lint=flag(env, "KCOMPAT_LINT", "lint", False),
            event=event,
            summary=Inputs.runner_files(env).summary,
            output=Inputs.runner_files(env).output,
            repository=env.get("GITHUB_REPOSITORY", ""),
            api_url=env.get("GITHUB_API_URL", "https://api.github.com").rstrip("/"),
            server_url=env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/"),
            token=env.get("GITHUB_TOKEN", ""),
            provenance=pinned(env),
        )

    @staticmethod
    def runner_files(env: Mapping[str, str]) -> RunnerFiles:
        return RunnerFiles(
            Path(env["GITHUB_STEP_SUMMARY"]) if env.get("GITHUB_STEP_SUMMARY") else None,
            Path(env["GITHUB_OUTPUT"]) if env.get("GITHUB_OUTPUT") else None,
        )


def pinned(env: Mapping[str, str]) -> Provenance:
    """The kcompat a workflow's ``uses: OWNER/NAME@REF`` pinned. The runner fetches an
    action to ``_actions/OWNER/NAME/REF`` (``GITHUB_ACTION_PATH``): that names it even
    where GitHub leaves ``github.action_ref`` empty (a composite action's steps) or gives
    an outer action's ref (an action that wraps this one). Run otherwise (a local
    ``uses: ./``), it is what pip installed (:func:`kcompat.provenance.installed`)."""
    parts = Path(env.get("GITHUB_ACTION_PATH", "")).parts
    if len(parts) >= 4 and parts[-4] == "_actions":
        owner, name, ref = parts[-3], parts[-2], usable_ref(parts[-1])
        if ref is not None and usable_ref(f"{owner}/{name}") is not None:
            server = env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
            same = f"{owner}/{name}".lower() == "kcompat/kcompat"
            return Provenance(REPOSITORY if same else f"{server}/{owner}/{name}", ref)
    ref = usable_ref(env.get("KCOMPAT_ACTION_REF", ""))
    return Provenance(ref=ref) if ref is not None else installed()


def take_token(env: MutableMapping[str, str]) -> None:
    """Remove the token from the environment the step's child processes inherit (it was
    read into :class:`Inputs` already)."""
    env.pop("GITHUB_TOKEN", None)


def isolate_imports(path: list[str]) -> None:
    """Drop relative entries (``''``: the working directory) from ``sys.path`` before the
    step moves into the workspace, so no later import can come from the pull request's
    files even when the step was not started with ``python -I``."""
    path[:] = [entry for entry in path if entry and os.path.isabs(entry)]
