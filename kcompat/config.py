"""Configuration from ``kcompat.toml`` or ``[tool.kcompat]`` in ``pyproject.toml``.

Looked up from the working directory upwards to the repository root. Keys::

    paths = ["clients/src/main/resources/common/message"]   # where specs live
    disable = ["file-name-mismatch"]                          # rules turned off
    fail-on = "error"                                         # error | warning | info
    released = "auto"                                         # auto | base | tags
    release-tags = '^v?\\d+\\.\\d+(\\.\\d+)?$'              # which tags are releases
    release-branches = '^\\d+\\.\\d+$'                        # branches about to ship (off)
    [severity]                                                # per-rule severities
    lowest-version-raised = "warning"

(in ``pyproject.toml`` the tables are ``[tool.kcompat]`` and ``[tool.kcompat.severity]``).
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kcompat.rules.engine import Severity, all_rules

DEFAULT_RELEASE_TAGS = r"^v?\d+\.\d+(\.\d+)?$"


class ConfigError(Exception):
    """A configuration problem, reported as one line naming the file."""


@dataclass(frozen=True)
class Config:
    paths: tuple[str, ...] = ()
    disabled: frozenset[str] = frozenset()
    severities: Mapping[str, Severity] = field(default_factory=lambda: MappingProxyType({}))
    fail_on: Severity = Severity.ERROR
    released: str = ""  # "" (auto: tags where the repository has releases), base or tags
    release_tags: str = DEFAULT_RELEASE_TAGS
    release_branches: str = ""  # branches whose tips count as about to ship (off by default)
    source: str = ""  # the file it came from, "" for defaults
    root: str = ""  # the directory holding that file

    def __reduce__(self) -> tuple[Any, ...]:
        # mappingproxy does not pickle; Spark ships the configuration to executors
        return (
            _rebuild,
            (
                self.paths,
                self.disabled,
                dict(self.severities),
                self.fail_on,
                self.released,
                self.release_tags,
                self.source,
                self.root,
                self.release_branches,
            ),
        )


def _rebuild(
    paths: tuple[str, ...],
    disabled: frozenset[str],
    severities: dict[str, Severity],
    fail_on: Severity,
    released: str,
    release_tags: str,
    source: str,
    root: str,
    release_branches: str,
) -> Config:
    return Config(
        paths,
        disabled,
        MappingProxyType(severities),
        fail_on,
        released,
        release_tags,
        source,
        root,
        release_branches,
    )


_KEYS = {
    "paths",
    "disable",
    "fail-on",
    "severity",
    "released",
    "release-tags",
    "release-branches",
}


def find_config(start: Path) -> Path | None:
    """The nearest kcompat.toml, or pyproject.toml with [tool.kcompat], up to the repo root."""
    current = start.resolve()
    for directory in (current, *current.parents):
        candidate = directory / "kcompat.toml"
        if candidate.is_file():
            return candidate
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file() and "[tool.kcompat" in pyproject.read_text(errors="replace"):
            return pyproject
        if (directory / ".git").exists():
            break
    return None


def load_config(start: Path | None = None, explicit: Path | None = None) -> Config:
    path = explicit if explicit is not None else find_config(start or Path.cwd())
    if path is None:
        return Config()
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot read the configuration ({err})") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: invalid TOML: {err}") from None
    table = data.get("tool", {}).get("kcompat", {}) if path.name == "pyproject.toml" else data
    return parse_config(table, str(path), str(path.parent))


def parse_config(table: Mapping[str, Any], source: str, root: str = "") -> Config:
    """Validate one configuration table; every mistake names the file and the key."""
    for key in table:
        if key not in _KEYS:
            guess = difflib.get_close_matches(key, sorted(_KEYS), n=1)
            hint = f"; did you mean {guess[0]!r}?" if guess else ""
            raise ConfigError(f"{source}: unknown key {key!r}{hint}")
    known = {r.id for r in all_rules()}

    def check_rule(rule_id: str, where: str) -> str:
        if rule_id not in known:
            guess = difflib.get_close_matches(rule_id, sorted(known), n=1)
            hint = f"; did you mean {guess[0]!r}?" if guess else "; see `kcompat rules`"
            raise ConfigError(f"{source}: unknown rule {rule_id!r} in {where}{hint}")
        return rule_id

    paths = table.get("paths", [])
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise ConfigError(f"{source}: 'paths' must be a list of strings")
    disable = table.get("disable", [])
    if not isinstance(disable, list):
        raise ConfigError(f"{source}: 'disable' must be a list of rule IDs")
    severities: dict[str, Severity] = {}
    for rule_id, value in dict(table.get("severity", {})).items():
        check_rule(rule_id, "[severity]")
        if value == "off":
            disable.append(rule_id)
            continue
        try:
            severities[rule_id] = Severity.parse(str(value))
        except ValueError as err:
            raise ConfigError(f"{source}: [severity] {rule_id}: {err}") from None
    try:
        fail_on = Severity.parse(str(table.get("fail-on", "error")))
    except ValueError as err:
        raise ConfigError(f"{source}: fail-on: {err}") from None
    released = str(table.get("released", "auto"))
    if released not in ("auto", "base", "tags"):
        raise ConfigError(f"{source}: released must be 'auto', 'base' or 'tags', not {released!r}")
    patterns = {}
    for key, default in (("release-tags", DEFAULT_RELEASE_TAGS), ("release-branches", "")):
        patterns[key] = str(table.get(key, default))
        try:
            re.compile(patterns[key])
        except re.error as err:
            raise ConfigError(f"{source}: {key} is not a valid regex: {err}") from None
    return Config(
        paths=tuple(paths),
        disabled=frozenset(check_rule(str(r), "disable") for r in disable),
        severities=MappingProxyType(severities),
        fail_on=fail_on,
        released="" if released == "auto" else released,
        release_tags=patterns["release-tags"],
        source=source,
        root=root,
        release_branches=patterns["release-branches"],
    )
