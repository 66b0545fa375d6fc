"""What a change does to kcompat's own configuration: every setting that differs between
BASE's configuration and the change's, and whether it can hide findings.

A pull request may edit ``kcompat.toml`` (or ``[tool.kcompat]``) along with the specs it
breaks. Accepting a break in the same change is allowed, but never silently: each setting
that can hide findings and differs is a :class:`SettingChange`, which
:mod:`kcompat.diff.weakened` weighs (how many findings of this comparison it hides) and
reports as a ``config-weakened`` finding. :data:`SETTINGS` says, per setting, how it can
weaken the gate; a configuration field it does not name is compared as a whole, and any
change of it counts as one that may hide findings (the safe reading of a setting this
table has not been taught).
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from types import MappingProxyType
from typing import Any

from kcompat.config import Config
from kcompat.findings import Severity
from kcompat.rules.registry import Category, Elsewhere, RuleKind, elsewhere, get_rule

(CONFIG_WEAKENED,) = elsewhere(
    RuleKind.DIFF,
    (
        Elsewhere(
            "config-weakened",
            Category.SUPPRESSION,
            Severity.WARNING,
            "kcompat.diff.weakened:review_configuration",
        ),
        "The change's own configuration hides or lowers findings BASE's configuration reports.",
    ),
)

#: Configuration fields that say where a configuration came from, not what it checks.
METADATA = frozenset({"source", "root", "label", "lines"})
#: Entry attributes under the key a file writes them with (``preview``'s ``message``).
_AS_WRITTEN = {"pattern": "message"}
#: A value longer than this is cut in messages (the file holds the rest).
_SHOWN = 160

#: judges a change from BASE's configuration to the change's: can it hide findings?
#: (None: it depends on the repository's refs; see :func:`setting_changes`)
Judge = Callable[[Config, Config], bool | None]


@dataclass(frozen=True)
class SettingChange:
    """One setting that differs between BASE's configuration and the change's."""

    setting: str  # as a reader finds it: disable, [severity] tag-changed, [[ignore]] #2
    key: str  # where it is written (:meth:`Config.line_of`): severity.tag-changed, ignore#2
    old: str  # BASE's value in TOML ("" when BASE does not set it)
    new: str  # the change's value in TOML ("" when the change removes it)
    weakens: bool | None  # can it hide findings (None: depends on the repository's refs)
    apply: Callable[[Config], Config] = field(compare=False, repr=False)
    what: str = ""  # what the change does, when the values alone bury it ("turns off ...")

    @property
    def said(self) -> str:
        """``fail-on = "error" (was "warning")``: the setting with its new and old value."""
        if self.what:
            return f"{self.setting} {self.what} (now {self.new}, was {self.old})"
        if not self.old:
            return f"{self.setting} = {self.new} (new in this change)"
        if not self.new:
            return f"{self.setting} (was {self.old}) removed in this change"
        return f"{self.setting} = {self.new} (was {self.old})"


Changes = Callable[["Setting", Config, Config], list[SettingChange]]


@dataclass(frozen=True)
class Setting:
    """One setting: the configuration attribute holding it, its key in the file, how a
    change of it can hide findings (the words ``docs/SECURITY.md`` shows), and how its
    changes are found."""

    attribute: str
    key: str
    how: str
    changes: Changes
    judge: Judge = field(default=lambda _base, _head: True)


def toml(value: Any) -> str:
    """A configuration value as TOML would write it (cut to a readable length)."""
    text = _toml(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Severity):
        return json.dumps(value.label)
    if isinstance(value, str | int | float):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, frozenset | set):
        value = sorted(value)
    if isinstance(value, Mapping | MappingProxyType):
        inner = ", ".join(f"{k} = {_toml(v)}" for k, v in sorted(value.items()))
        return "{" + inner + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if is_dataclass(value) and not isinstance(value, type):
        shown = {
            _AS_WRITTEN.get(f.name, f.name): getattr(value, f.name)
            for f in fields(value)
            if f.compare
        }
        return _toml({k: v for k, v in shown.items() if v not in ("", (), None)})
    return json.dumps(str(value), ensure_ascii=False)


def _whole(setting: Setting, base: Config, head: Config) -> list[SettingChange]:
    """The setting compared as one value."""
    old, new = getattr(base, setting.attribute), getattr(head, setting.attribute)
    if old == new:
        return []
    return [
        SettingChange(
            setting.key,
            setting.key,
            toml(old),
            toml(new),
            setting.judge(base, head),
            lambda config: replace(config, **{setting.attribute: new}),
        )
    ]


def _disabled(setting: Setting, base: Config, head: Config) -> list[SettingChange]:
    """``disable``, saying first which rules the change turns off (a category names many)."""
    found = _whole(setting, base, head)
    off = sorted(head.disabled - base.disabled)
    if found and off:
        shown = ", ".join(json.dumps(rule_id) for rule_id in off[:8])
        more = f" and {len(off) - 8} more" if len(off) > 8 else ""
        return [replace(found[0], what=f"turns off {shown}{more}")]
    return found


def _severities(setting: Setting, base: Config, head: Config) -> list[SettingChange]:
    """One change per rule whose configured severity differs."""
    out = []
    for rule_id in sorted({*base.severities, *head.severities}):
        old, new = base.severities.get(rule_id), head.severities.get(rule_id)
        if old == new:
            continue
        rule = get_rule(rule_id)
        default = rule.severity if rule is not None else Severity.ERROR
        out.append(
            SettingChange(
                f"[severity] {rule_id}",
                f"severity.{rule_id}",
                toml(old) if old is not None else "",
                toml(new) if new is not None else "",
                (new or default) < (old or default),
                _severity_setter(rule_id, new),
            )
        )
    return out


def _severity_setter(rule_id: str, severity: Severity | None) -> Callable[[Config], Config]:
    """What sets one rule's configured severity (None: unset) on a configuration."""

    def apply(config: Config) -> Config:
        levels = {k: v for k, v in config.severities.items() if k != rule_id}
        if severity is not None:
            levels[rule_id] = severity
        return replace(config, severities=MappingProxyType(levels))

    return apply


def _entries(setting: Setting, base: Config, head: Config) -> list[SettingChange]:
    """One change per entry the change adds. A ``preview`` entry that differs only in
    its ``reason`` is not new (the reason hides nothing). An ``[[ignore]]`` entry is an
    acceptance, known by its whole text: BASE's entries accept no finding of a
    comparison (each is new against BASE), so one whose reason the change rewrites is
    this change's own acceptance, a change that weakens nothing by itself and is
    reported when it accepts something here."""
    entries = getattr(base, setting.attribute)
    known = {_unreasoned(entry): entry for entry in entries}
    out = []
    for number, entry in enumerate(getattr(head, setting.attribute), start=1):
        old = known.get(_unreasoned(entry))
        if old is not None and (setting.key != "ignore" or entry in entries):
            continue
        name = f"[[{setting.key}]] #{number}" if setting.key == "ignore" else setting.key
        out.append(
            SettingChange(
                name,
                f"{setting.key}#{number}" if setting.key == "ignore" else setting.key,
                toml(old) if old is not None else "",
                toml(entry),
                old is None,
                _entry_adder(setting.attribute, entry),
            )
        )
    return out


def _entry_adder(attribute: str, entry: Any) -> Callable[[Config], Config]:
    """What adds one entry to a configuration's ``attribute`` (ignore, preview)."""

    def apply(config: Config) -> Config:
        values: dict[str, Any] = {attribute: (*getattr(config, attribute), entry)}
        return replace(config, **values)

    return apply


def _unreasoned(entry: Any) -> Any:
    return replace(entry, reason="") if hasattr(entry, "reason") else entry


def _narrower_paths(base: Config, head: Config) -> bool:
    """A folder BASE checks that the change's ``paths`` leave out (no ``paths``: the
    folder the configuration is in, and everything under it)."""
    if not head.paths:
        return False

    def folders(config: Config) -> list[str]:
        root = config.root or head.root or base.root
        return [posixpath.normpath(posixpath.join(root, p)) for p in config.paths or ["."]]

    theirs = folders(head)
    return any(
        not any(path == t or path.startswith(t.rstrip("/") + "/") for t in theirs)
        for path in folders(base)
    )


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "paths",
        "paths",
        "fewer spec files compared: a folder BASE checks is left out",
        _whole,
        _narrower_paths,
    ),
    Setting(
        "disabled",
        "disable",
        'rules turned off (with `category:`, or `[severity] rule = "off"`)',
        _disabled,
        lambda base, head: bool(head.disabled - base.disabled),
    ),
    Setting(
        "severities",
        "severity",
        "a rule's findings lowered below BASE's severity (or the rule's default)",
        _severities,
    ),
    Setting(
        "fail_on",
        "fail-on",
        "a higher threshold: findings below it no longer fail",
        _whole,
        lambda base, head: head.fail_on.threshold > base.fail_on.threshold,
    ),
    Setting(
        "released",
        "released",
        "from `base` (every version in BASE counts as released) to tags: fewer released "
        "versions, so fewer errors",
        _whole,
        lambda base, head: base.released == "base" and head.released != "base",
    ),
    Setting(
        "release_tags",
        "release-tags",
        "a pattern that matches fewer of the repository's tags: fewer releases",
        _whole,
        lambda _base, _head: None,
    ),
    Setting(
        "release_branches",
        "release-branches",
        "a pattern that matches fewer of the repository's branches: fewer releases about to ship",
        _whole,
        lambda _base, _head: None,
    ),
    Setting(
        "ignore",
        "ignore",
        "a new `[[ignore]]` entry accepts findings (listed, never failing)",
        _entries,
    ),
    Setting(
        "preview",
        "preview",
        "a new `preview` entry turns a message's errors into warnings",
        _entries,
    ),
    Setting(
        "fixtures",
        "fixtures",
        "more folders of test specs: the findings about their specs become infos",
        _whole,
        lambda base, head: bool(set(head.fixtures) - set(base.fixtures)),
    ),
    Setting(
        "diff_base",
        "diff-base",
        "none: what the language server diffs a saved spec against; `diff` never reads it",
        _whole,
        lambda _base, _head: False,
    ),
    Setting(
        "report_unused_ignores",
        "report-unused-ignores",
        "from true to false: ignore comments and entries that silence nothing go unreported",
        _whole,
        lambda base, head: base.report_unused_ignores and not head.report_unused_ignores,
    ),
)


def settings() -> tuple[Setting, ...]:
    """:data:`SETTINGS`, and every other configuration field as a setting compared whole
    whose every change may hide findings."""
    named = {setting.attribute for setting in SETTINGS}
    rest = tuple(
        Setting(f.name, f.name.replace("_", "-"), "not judged: any change counts", _whole)
        for f in fields(Config)
        if f.name not in named and f.name not in METADATA
    )
    return SETTINGS + rest


#: The refs a release pattern matches, by the setting's key (None: it cannot tell).
Matcher = Callable[[str, str], frozenset[str] | None]


def setting_changes(
    base: Config, head: Config, matched: Matcher | None = None
) -> list[SettingChange]:
    """Every setting that differs between ``base`` and ``head``. A pattern's change
    (``release-tags``) weakens when ``matched(key, pattern)``, the refs a pattern matches,
    loses one; without ``matched``, or when it cannot tell, any change of it does."""
    out = []
    for setting in settings():
        for change in setting.changes(setting, base, head):
            if change.weakens is None:
                old = new = None
                if matched is not None:
                    old = matched(setting.key, getattr(base, setting.attribute))
                    new = matched(setting.key, getattr(head, setting.attribute))
                weakens = old is None or new is None or bool(old - new)
                change = replace(change, weakens=weakens)
            out.append(change)
    return out
