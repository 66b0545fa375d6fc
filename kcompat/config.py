"""Configuration from ``kcompat.toml`` or ``[tool.kcompat]`` in ``pyproject.toml``.

Looked up from the working directory upwards to the repository root. Keys::

    paths = ["clients/src/main/resources/common/message"]   # where specs live
    disable = ["file-name-mismatch", "category:docs"]         # rules (or categories) off
    fail-on = "error"                                         # error | warning | info | never
    released = "auto"                                         # auto | base | tags
    release-tags = '^v?\\d+\\.\\d+(\\.\\d+)?$'              # which tags are releases
    release-branches = '^\\d+\\.\\d+$'                        # branches about to ship (off)
    fixtures = ["src/test/*"]                                 # test specs: never shipped
    diff-base = "origin/trunk"                                # kcompat lsp: diff on save
    [severity]                                                # per-rule severities
    lowest-version-raised = "warning"

(in ``pyproject.toml`` the tables are ``[tool.kcompat]`` and ``[tool.kcompat.severity]``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kcompat.config_preview import Preview as Preview
from kcompat.config_preview import bounded_glob, parse_previews
from kcompat.config_preview import glob_matches as glob_matches
from kcompat.findings import Severity
from kcompat.modes import FailOn, Level, ReleasedMode, must_be
from kcompat.patterns import RELEASE_TAGS, PatternError, compiled, quoted
from kcompat.tomllines import key_lines, line_of

DEFAULT_RELEASE_TAGS = RELEASE_TAGS
#: Where test specs live (Maven and Gradle layouts): no release ships them, so a diff's
#: findings about them are at most info.
DEFAULT_FIXTURES = ("src/test/*", "src/testFixtures/*")
#: A configuration file larger than this is refused (it is read whole).
MAX_CONFIG_BYTES = 1024 * 1024


#: The rules a configuration may name: called (once, and only when a file is read) for a
#: mapping of every rule ID to its category. The rule registry sits above configuration,
#: so the command that loads a configuration hands it over (``registry.rule_categories``).
RuleCatalogue = Callable[[], Mapping[str, str]]


class ConfigError(Exception):
    """A configuration problem, reported as one line naming the file (and the line of
    ``key``, the setting it is about, when the file is read: :meth:`at`)."""

    def __init__(self, message: str, key: str = "") -> None:
        super().__init__(message)
        self.key = key

    def at(self, named: str, lines: Mapping[str, int]) -> ConfigError:
        """The same problem, its file named with the line that holds its key
        (``kcompat.toml:3: fail-on must be ...``)."""
        line = lines.get(self.key, 0)
        text = str(self)
        if not line or not text.startswith(f"{named}: "):
            return self
        return ConfigError(f"{named}:{line}: {text.removeprefix(f'{named}: ')}", self.key)


@dataclass(frozen=True)
class Acceptance:
    """An ``[[ignore]]`` entry: a known break accepted on the record, with its reason.

    It matches findings of its rules (any rule when none are named) on messages whose name
    matches one of ``messages`` and files matching one of ``paths`` (either, when both
    are given). Accepted findings are still shown, marked as accepted, and never fail.
    """

    reason: str
    rules: tuple[str, ...] = ()
    messages: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    number: int = field(default=0, compare=False)  # its place among [[ignore]] entries

    @property
    def named(self) -> str:
        """How findings name it: ``[[ignore]] #2``."""
        return f"[[ignore]] #{self.number}"

    def matches(self, rule: str, message_name: str, path: str) -> bool:
        if self.rules and rule not in self.rules:
            return False
        if not self.messages and not self.paths:
            return True
        by_name = (
            any(glob_matches(g, message_name) for g in self.messages) if message_name else False
        )
        by_path = any(glob_matches(g, path) for g in self.paths)
        return by_name or by_path


@dataclass(frozen=True)
class Config:
    paths: tuple[str, ...] = ()
    disabled: frozenset[str] = frozenset()
    severities: Mapping[str, Severity] = field(default_factory=lambda: MappingProxyType({}))
    fail_on: FailOn = FailOn.error
    released: ReleasedMode = ReleasedMode.AUTO  # auto: tags where the repository has any
    release_tags: str = DEFAULT_RELEASE_TAGS
    release_branches: str = ""  # branches whose tips count as about to ship (off by default)
    source: str = ""  # the file it came from, "" for defaults
    root: str = ""  # the directory holding that file
    ignore: tuple[Acceptance, ...] = ()
    preview: tuple[Preview, ...] = ()
    report_unused_ignores: bool = False
    fixtures: tuple[str, ...] = DEFAULT_FIXTURES  # path globs of test specs
    diff_base: str = ""  # kcompat lsp: the revision a saved spec is diffed against ("": none)
    label: str = ""  # how findings name the file (relative to the working directory)
    lines: tuple[tuple[str, int], ...] = ()  # where each key is written (tomllines)

    def line_of(self, key: str) -> int:
        """The line of a key (``severity.tag-changed``, ``ignore#2``), else of the nearest
        enclosing one, else 1."""
        return line_of(dict(self.lines), key)

    def is_fixture(self, path: str) -> bool:
        """Whether ``path`` is a test spec (see ``fixtures``)."""
        return any(glob_matches(g, path) for g in self.fixtures)

    def __reduce__(self) -> tuple[Any, ...]:
        # mappingproxy does not pickle; Spark ships the configuration to executors
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["severities"] = dict(self.severities)
        return (_rebuild, (values,))


def _rebuild(values: dict[str, Any]) -> Config:
    values["severities"] = MappingProxyType(values["severities"])
    return Config(**values)


#: The keys a configuration may hold.
_KEYS = frozenset((
    "paths", "disable", "fail-on", "severity", "released", "release-tags",
    "release-branches", "ignore", "preview", "report-unused-ignores", "fixtures", "diff-base",
))  # fmt: skip


def find_config(start: Path) -> Path | None:
    """The nearest kcompat.toml, or pyproject.toml with a ``tool.kcompat`` table (in any
    TOML spelling: a section, an inline table, dotted keys), up to the repository root."""
    current = start.resolve()
    for directory in (current, *current.parents):
        candidate = directory / "kcompat.toml"
        if candidate.is_file():
            return candidate
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file() and _has_kcompat_table(pyproject):
            return pyproject
        if (directory / ".git").exists():
            break
    return None


def _has_kcompat_table(pyproject: Path) -> bool:
    return configures_kcompat(_read_toml_text(pyproject))


def configures_kcompat(text: str) -> bool:
    """Whether a pyproject.toml's text configures kcompat. One that does not parse is
    another tool's problem, unless it mentions kcompat (then its error is ours to report)."""
    import tomllib  # only when there is a file to read: a cold start pays nothing otherwise

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return "kcompat" in text
    tool = data.get("tool")
    return isinstance(tool, dict) and "kcompat" in tool


def _read_toml_text(path: Path) -> str:
    from kcompat.bounded import read_capped

    try:
        got = read_capped(path, MAX_CONFIG_BYTES)
    except OSError as err:
        raise ConfigError(
            f"{path}: cannot read the configuration ({err.strerror or err})"
        ) from None
    if got.over:
        raise ConfigError(
            f"{path}: over {MAX_CONFIG_BYTES // (1024 * 1024)} MiB; is this a configuration file?"
        )
    try:
        return got.data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(
            f"{path}: not valid UTF-8 (offset {err.start}); save it as UTF-8"
        ) from None


@dataclass(frozen=True)
class ConfigChoice:
    """Which configuration a command reads, as its options say: ``--config`` (``None``:
    the nearest to where it starts), the ``--report-unused-ignores`` override, and the
    rules ``--disable`` turns off for the run (on every side of a diff alike: the
    command line is no part of the change)."""

    explicit: Path | None = None
    report_unused_ignores: bool = False
    disable: tuple[str, ...] = ()

    def load(self, start: Path | None, *, rules: RuleCatalogue) -> Config:
        found = load_config(
            start, self.explicit, rules=rules, report_unused_ignores=self.report_unused_ignores
        )
        return self.overriding(found, rules=rules)

    def overriding(self, config: Config, *, rules: RuleCatalogue) -> Config:
        """``config`` with what the command line adds: ``--disable``'s rules off (each
        checked as the ``disable`` key is, with a did-you-mean)."""
        if not self.disable:
            return config
        extra = parse_config({"disable": list(self.disable)}, "--disable", rules=rules)
        return replace(config, disabled=config.disabled | extra.disabled)


def load_config(
    start: Path | None = None,
    explicit: Path | None = None,
    *,
    rules: RuleCatalogue,
    report_unused_ignores: bool = False,
) -> Config:
    """The configuration found from ``start`` (or the ``explicit`` file); the
    ``--report-unused-ignores`` flag turns that key on whatever the file says."""
    found = _load_config(start, explicit, rules)
    if report_unused_ignores and not found.report_unused_ignores:
        return replace(found, report_unused_ignores=True)
    return found


def _load_config(start: Path | None, explicit: Path | None, rules: RuleCatalogue) -> Config:
    path = explicit if explicit is not None else find_config(start or Path.cwd())
    if path is None:
        return Config()
    found = config_from_text(_read_toml_text(path), path, rules=rules)
    return found if explicit is None else replace(found, label=str(explicit))  # as typed


def config_from_text(
    text: str, path: Path, *, rules: RuleCatalogue, source: str = "", root: Path | None = None
) -> Config:
    """The configuration ``text`` holds, read as the file ``path`` (a ``pyproject.toml``
    by its ``[tool.kcompat]`` table); ``source`` names it in errors (default: the path),
    ``root`` is where its ``paths`` start (default: the file's directory). The same text
    read from a git revision is the same configuration."""
    import os
    import tomllib  # only when there is a file to read: a cold start pays nothing otherwise

    named = source or str(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{named}: invalid TOML: {err}") from None
    table: Any = data
    prefix = ""
    if path.name == "pyproject.toml":
        prefix = "tool.kcompat"
        tool = data.get("tool", {})
        if not isinstance(tool, dict):
            raise ConfigError(
                f"{named}: 'tool' must be a table ([tool.kcompat] holds kcompat's keys)"
            )
        table = tool.get("kcompat", {})
        if not isinstance(table, dict):
            raise ConfigError(f"{named}: 'tool.kcompat' must be a table, not {_kind(table)}")
    lines = key_lines(text, prefix)
    try:
        found = parse_config(
            table, named, str(root if root is not None else path.parent), rules=rules
        )
    except ConfigError as err:
        raise err.at(named, lines) from None
    try:
        label = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        label = str(path)
    return replace(found, label=label, lines=tuple(lines.items()))


def _selected(
    entry: str,
    source: str,
    check_rule: Callable[[str, str, str], str],
    categories: Mapping[str, str],
) -> list[str]:
    """The rule IDs one ``disable`` entry names: a rule ID, or ``category:NAME`` (every
    rule of that category, as ``kcompat rules --category NAME`` lists them)."""
    if not entry.startswith("category:"):
        return [check_rule(entry, "disable", "disable")]
    name = entry.removeprefix("category:")
    chosen = [rule for rule, category in categories.items() if category == name]
    if not chosen:
        known = sorted(set(categories.values()))
        guess = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean 'category:{guess[0]}'?" if guess else f"; one of {', '.join(known)}"
        raise ConfigError(f"{source}: unknown category {name!r} in disable{hint}", "disable")
    return chosen


def parse_config(
    table: Mapping[str, Any], source: str, root: str = "", *, rules: RuleCatalogue
) -> Config:
    """Validate one configuration table; every mistake names the file and the key."""
    for key in table:
        if key not in _KEYS:
            guess = difflib.get_close_matches(key, sorted(_KEYS), n=1)
            hint = f"; did you mean {guess[0]!r}?" if guess else ""
            raise ConfigError(f"{source}: unknown key {key!r}{hint}", key)
    categories = rules()
    known = set(categories)

    def check_rule(rule_id: str, where: str, key: str) -> str:
        if rule_id not in known:
            guess = difflib.get_close_matches(rule_id, sorted(known), n=1)
            hint = f"; did you mean {guess[0]!r}?" if guess else "; see `kcompat rules`"
            raise ConfigError(f"{source}: unknown rule {rule_id!r} in {where}{hint}", key)
        return rule_id

    def text(key: str, default: str) -> str:
        return str(_typed(table, key, str, default, source, "a string"))

    paths = _globs(_string_list(table, "paths", source, "a list of paths"), source, "paths")
    disable = list(_string_list(table, "disable", source, "a list of rule IDs"))
    severities: dict[str, Severity] = {}
    levels = _typed(table, "severity", dict, {}, source, 'a table ([severity] rule = "level")')
    for rule_id, value in levels.items():
        check_rule(rule_id, "[severity]", f"severity.{rule_id}")
        if not isinstance(value, str):
            raise ConfigError(
                f"{source}: [severity] {rule_id} must be a string "
                f'("error", "warning", "info" or "off"), not {_kind(value)}',
                f"severity.{rule_id}",
            )
        if value == "off":
            disable.append(rule_id)
            continue
        level = Level.lookup(value.strip())
        if level is None:
            choices = (*(known.value for known in Level), "off")
            refusal = must_be(f"[severity] {rule_id}", choices, value)
            raise ConfigError(f"{source}: {refusal}", f"severity.{rule_id}")
        severities[rule_id] = Severity[level.name.upper()]
    written_fail_on = text("fail-on", "error")
    fail_on = FailOn.lookup(written_fail_on.strip())
    if fail_on is None:
        raise ConfigError(f"{source}: {FailOn.refusal('fail-on', written_fail_on)}", "fail-on")
    written = text("released", ReleasedMode.AUTO)
    released = ReleasedMode.lookup(written)
    if released is None:
        raise ConfigError(f"{source}: {ReleasedMode.refusal('released', written)}", "released")
    patterns = {}
    for key, default in (("release-tags", DEFAULT_RELEASE_TAGS), ("release-branches", "")):
        patterns[key] = text(key, default)
        if patterns[key] == default:
            continue  # kcompat's own: valid (and the regex engine stays unimported)
        try:
            compiled(patterns[key])
        except PatternError as err:
            raise ConfigError(f"{source}: {key} {quoted(patterns[key])} {err}", key) from None
    unused = _typed(table, "report-unused-ignores", bool, False, source, "true or false")
    fixtures = (
        _globs(_string_list(table, "fixtures", source, "a list of path globs"), source, "fixtures")
        if "fixtures" in table
        else DEFAULT_FIXTURES
    )
    return Config(
        fixtures=fixtures,
        ignore=_acceptances(table.get("ignore", []), source, check_rule),
        preview=_previews(table.get("preview", []), source),
        report_unused_ignores=unused,
        paths=paths,
        disabled=frozenset(
            rule_id
            for entry in disable
            for rule_id in _selected(entry, source, check_rule, categories)
        ),
        severities=MappingProxyType(severities),
        fail_on=fail_on,
        released=released,
        release_tags=patterns["release-tags"],
        source=source,
        root=root,
        release_branches=patterns["release-branches"],
        diff_base=text("diff-base", "").strip(),
    )


def _kind(value: Any) -> str:
    """A TOML value's type in TOML's words, for "must be X, not Y"."""
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    names.update({list: "an array", dict: "a table"})
    return names.get(type(value), type(value).__name__)


def _typed(
    table: Mapping[str, Any], key: str, kind: type, default: Any, source: str, what: str
) -> Any:
    value = table.get(key, default)
    if not isinstance(value, kind):
        raise ConfigError(f"{source}: '{key}' must be {what}, not {_kind(value)}", key)
    return value


def _string_list(table: Mapping[str, Any], key: str, source: str, what: str) -> tuple[str, ...]:
    value = _typed(table, key, list, [], source, what)
    if not all(isinstance(v, str) for v in value):
        odd = next(v for v in value if not isinstance(v, str))
        raise ConfigError(
            f"{source}: '{key}' must be {what} (strings), not {_kind(odd)} {odd!r}", key
        )
    return tuple(value)


def _globs(values: tuple[str, ...], source: str, where: str, key: str = "") -> tuple[str, ...]:
    """``values``, each within :data:`kcompat.config_preview.MAX_GLOB` characters."""
    try:
        return tuple(bounded_glob(value, where) for value in values)
    except ValueError as err:
        raise ConfigError(f"{source}: {err}", key or where) from None


def _strings(value: Any, source: str, where: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ConfigError(f"{source}: {where} must be a string or a list of strings", key)


def _acceptances(value: Any, source: str, check_rule: Any) -> tuple[Acceptance, ...]:
    """``[[ignore]]`` tables: rule(s), message(s) and/or path(s), and a required reason."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ConfigError(f"{source}: 'ignore' must be [[ignore]] tables", "ignore")
    return tuple(
        _acceptance(entry, number, source, check_rule)
        for number, entry in enumerate(value, start=1)
    )


_ACCEPTANCE_KEYS = {"rule", "rules", "message", "messages", "path", "paths", "reason"}


def _acceptance(entry: dict[str, Any], number: int, source: str, check_rule: Any) -> Acceptance:
    """One ``[[ignore]]`` table (the ``number``-th of the file)."""
    where, table = f"[[ignore]] #{number}", f"ignore#{number}"
    unknown = sorted(set(entry) - _ACCEPTANCE_KEYS)
    if unknown:
        raise ConfigError(f"{source}: {where}: unknown key {unknown[0]!r}", table)
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise ConfigError(
            f'{source}: {where} needs a reason = "..." (why this break is accepted)', table
        )
    rules = tuple(  # each checked as it is read: the first problem is the one reported
        check_rule(r, where, table)
        for key in ("rule", "rules")
        if key in entry
        for r in _strings(entry[key], source, f"{where} {key}", table)
    )
    messages = _either(entry, ("message", "messages"), source, where, table)
    paths = _either(entry, ("path", "paths"), source, where, table)
    if not rules and not messages and not paths:
        raise ConfigError(f"{source}: {where} needs a rule, a message or a path to match", table)
    return Acceptance(reason.strip(), rules, messages, paths, number)


def _either(
    entry: dict[str, Any], keys: tuple[str, str], source: str, where: str, table: str
) -> tuple[str, ...]:
    """The strings of a key given as one (``rule``) or as a list (``rules``), or both."""
    return tuple(
        item
        for key in keys
        if key in entry
        for item in _globs(
            _strings(entry[key], source, f"{where} {key}", table), source, f"{where} {key}", table
        )
    )


def _previews(value: Any, source: str) -> tuple[Preview, ...]:
    try:
        return parse_previews(value)
    except ValueError as err:
        raise ConfigError(f"{source}: {err}", "preview") from None
