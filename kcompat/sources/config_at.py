"""kcompat's own configuration as one side of a comparison holds it.

``kcompat diff`` judges both sides by one configuration, the one in use: found in the
working tree from the repository's root (or named by ``--config``). A change can edit
that file along with the specs; what the file says on BASE's side and on HEAD's side is
what :mod:`kcompat.diff.weakened` compares. Both are read through the git layer, as the
specs are: from a revision, or from the index (``--staged``); on the working tree's side
it is the configuration in use. A directory side has no configuration of its own, and a
``--config`` file outside the repository belongs to neither side: no comparison then.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kcompat.config import (
    MAX_CONFIG_BYTES,
    Config,
    ConfigChoice,
    ConfigError,
    RuleCatalogue,
    config_from_text,
    configures_kcompat,
)
from kcompat.errors import UsageError
from kcompat.sources.git import GitRepo
from kcompat.sources.source import SpecSource
from kcompat.sources.spec_paths import SpecPaths

#: Where a configuration is looked for on a side, in order (as ``find_config`` looks in
#: the repository's root).
CANDIDATES = ("kcompat.toml", "pyproject.toml")


@dataclass(frozen=True)
class SideConfig:
    """The configuration one side holds (the defaults when it holds none)."""

    config: Config
    note: str = ""  # why the file could not be read (the defaults then stand in)


def config_on(
    side: SpecSource, in_use: Config, choice: ConfigChoice, *, rules: RuleCatalogue
) -> SideConfig | None:
    """The configuration ``side`` holds, or None where it is no part of the change (a
    directory, a ``--config`` file outside the repository)."""
    if side.working_tree:
        return SideConfig(in_use)
    if side.repo is None:
        return None
    repo = side.repo
    candidates: tuple[str, ...] = CANDIDATES
    if choice.explicit is not None:
        try:
            candidates = (repo.relative(choice.explicit),)
        except UsageError:
            return None
    defaults = choice.overriding(
        Config(report_unused_ignores=choice.report_unused_ignores), rules=rules
    )
    for relative in candidates:
        data = side.read(relative)
        if data is None:
            continue
        where = f"{relative} at {side.label}"
        if len(data) > MAX_CONFIG_BYTES:
            return SideConfig(defaults, f"{where} is over 1 MiB: the defaults stand in for it")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return SideConfig(defaults, f"{where} is not UTF-8: the defaults stand in for it")
        if relative == "pyproject.toml" and not choice.explicit and not configures_kcompat(text):
            continue
        try:
            found = config_from_text(text, repo.root / relative, rules=rules, source=where)
        except ConfigError as err:
            return SideConfig(defaults, f"{err}: the defaults stand in for it")
        if choice.report_unused_ignores:
            found = replace(found, report_unused_ignores=True)
        return SideConfig(choice.overriding(found, rules=rules))
    return SideConfig(defaults)


def spec_paths(config: Config, repo: GitRepo) -> tuple[str, ...]:
    """``paths`` as repository paths, unchecked (a folder BASE names may be gone in
    HEAD); () for every spec file."""
    return SpecPaths.of(config).in_repository(repo)
