"""How one comparison runs, as its command chose it: one frozen value, read once at the
edge (the command line, the Action's ``args``, ``explain --since``) and handed down to
what reads the sides (:mod:`kcompat.diff.run`), checks them (:mod:`kcompat.diff.check`)
and reviews the change's own configuration (:mod:`kcompat.diff.weakened`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kcompat.config import Acceptance, Config, ConfigChoice
from kcompat.diff.check import CheckOptions
from kcompat.modes import ReleasedMode, released_mode

if TYPE_CHECKING:
    from kcompat.cache import Cache


@dataclass(frozen=True)
class RunOptions:
    """Which configuration is read (``--config``, ``--disable``...), how the sides are
    read (``--released``, ``--history``, the disk cache) and how they are checked
    (``--proof``, ``--samples``, ``--baseline``)."""

    released: ReleasedMode | None = None  # --released (None: as configured)
    history: bool = True
    proof: bool = True
    samples: int = 20
    config_choice: ConfigChoice = field(default_factory=ConfigChoice)
    baseline: frozenset[str] = frozenset()
    cache: Cache | None = None  # the user's disk cache, when the command keeps one

    def released_mode(self, config: Config) -> ReleasedMode:
        """Which versions count as released under ``config``."""
        return released_mode(self.released, config.released)

    def check_options(
        self, config: Config, settled: Sequence[Acceptance] | None = None
    ) -> CheckOptions:
        """How the comparison is checked under ``config`` (``settled``: the ``[[ignore]]``
        entries BASE's configuration holds, which accept nothing new)."""
        return CheckOptions(
            config,
            self.proof,
            self.samples,
            self.baseline,
            self.cache.code if self.cache is not None else None,
            frozenset(settled) if settled is not None else None,
        )
