"""Tab completion of the words kcompat's commands take: rule IDs, message names and git
revisions (typer completes commands and options; these complete their values).

Each function is a typer ``autocompletion`` callback: it gets the command's context
(the options typed so far: ``--specs``, ``--repo``) and the word being completed, and
returns the candidates with a short help each (zsh and fish show it). A completion must
never fail or print: anything that goes wrong (no repository, an unreadable folder)
completes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

#: at most this many spec files are read to complete a message name
_MAX_SPECS = 5000

Candidates = list[tuple[str, str]]


def _matching(pairs: Iterable[tuple[str, str]], incomplete: str) -> Candidates:
    """The candidates that start with what was typed (case-insensitively, as kcompat
    matches names), each once, in order."""
    typed = incomplete.lower()
    seen: dict[str, str] = {}
    for value, about in pairs:
        if value.lower().startswith(typed) and value not in seen:
            seen[value] = about
    return list(seen.items())


def rule_ids(incomplete: str) -> Candidates:
    """Every rule ID, with its one-line purpose (``kcompat rules ID``)."""
    try:
        from kcompat.rules.registry import all_rules

        return _matching(sorted((r.id, r.summary) for r in all_rules()), incomplete)
    except Exception:  # completion never fails
        return []


def rules_or_categories(incomplete: str) -> Candidates:
    """What ``--disable`` takes: a rule ID, or ``category:NAME`` for a whole category."""
    try:
        from kcompat.rules.registry import all_rules

        rules = list(all_rules())
        categories = sorted({str(r.category) for r in rules})
        pairs = [
            *sorted((r.id, r.summary) for r in rules),
            *((f"category:{c}", f"every {c} rule") for c in categories),
        ]
        return _matching(pairs, incomplete)
    except Exception:
        return []


def _spec_roots(ctx: Any) -> list[str]:
    """Where ``explain``, ``encode`` and ``decode`` look for specs: ``--specs`` as typed
    so far, else the configured paths, else the working directory."""
    chosen = [str(p) for p in (ctx.params.get("specs") or [])]
    if chosen:
        return chosen
    try:
        from kcompat.config import load_config
        from kcompat.rules.registry import rule_categories
        from kcompat.sources.spec_paths import SpecPaths

        return SpecPaths.of(load_config(None, rules=rule_categories)).roots() or ["."]
    except Exception:
        return ["."]


def _message_names(roots: Iterable[str]) -> Iterator[tuple[str, str]]:
    from kcompat.sources.files import json_files
    from kcompat.spec.specfile import read_spec

    count = 0
    for root in roots:
        path = Path(root)
        files = json_files(path) if path.is_dir() else [path]
        for file in files:
            count += 1
            if count > _MAX_SPECS:
                return
            try:
                spec = read_spec(str(file), file.read_bytes())
            except OSError:
                continue
            message = spec.message
            if message is not None and message.name:
                key = f", API key {message.api_key}" if message.api_key is not None else ""
                yield message.name, f"{message.kind}{key}"


def message_names(ctx: Any, incomplete: str) -> Candidates:
    """The names of the messages in the specs the command would read."""
    try:
        return sorted(_matching(_message_names(_spec_roots(ctx)), incomplete))
    except Exception:
        return []


def revisions(ctx: Any, incomplete: str) -> Candidates:
    """Branches (local and remote-tracking) and tags of the repository (``--repo``, else
    the one around the working directory), newest tags last as git sorts them."""
    try:
        from kcompat.sources.git import GitRepo
        from kcompat.sources.refnames import ref_names

        repo_dir = ctx.params.get("repo_dir") or ctx.params.get("repo")
        repo = GitRepo.around(Path(repo_dir) if repo_dir else None)
        if repo is None:
            return []
        try:
            pairs = ref_names(repo)
        finally:
            repo.close()
    except Exception:
        return []
    return _matching(pairs, incomplete)


def sides(ctx: Any, incomplete: str) -> Candidates:
    """What BASE and HEAD take: a revision, or a folder (``specs/``, ``REV:path`` typed
    by hand)."""
    found = revisions(ctx, incomplete)
    try:
        typed = Path(incomplete or ".")
        folder = typed if incomplete.endswith("/") or not incomplete else typed.parent
        for entry in sorted(folder.iterdir()) if folder.is_dir() else []:
            shown = str(entry) + "/" if incomplete else entry.name + "/"
            if entry.is_dir() and not entry.name.startswith(".") and shown.startswith(incomplete):
                found.append((shown, "folder"))
    except OSError:
        pass
    return found
