"""What ``kcompat strands`` adds up to (``summary.json``), as typed values, and
its text: since which commit of a line each client release can no longer talk to it.

``to_json`` is the file's shape, key for key; ``from_json`` reads an audit directory's,
refusing what cannot be one (``kcompat report`` draws it). Every name from a spec, a tag
or a commit subject is :func:`~kcompat.escaping.shown` in the text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kcompat.escaping import shown

COMMAND = "strands"


@dataclass(frozen=True)
class Run:
    """Neighbouring commits that strand a client release on the same APIs."""

    first: int  # commit index
    last: int
    apis: tuple[int, ...]  # API keys


@dataclass(frozen=True)
class ClientLine:
    """One client release along the line: the runs of commits that strand it."""

    client: str
    runs: tuple[Run, ...] = ()

    def since(self, commits: int) -> int | None:
        """The commit since which the release is stranded (on whatever APIs) up to the
        line's last commit; None when the last commit does not strand it."""
        if not self.runs or self.runs[-1].last != commits - 1:
            return None
        first = self.runs[-1].first
        for run in reversed(self.runs[:-1]):
            if run.last != first - 1:
                break
            first = run.first
        return first

    def final(self, commits: int) -> tuple[Run, ...]:
        """The runs of the stretch :meth:`since` starts (the release stranded to the end)."""
        since = self.since(commits)
        return tuple(r for r in self.runs if since is not None and r.first >= since)

    def earlier(self, commits: int) -> tuple[Run, ...]:
        """The runs before that stretch (the line stranded the release, then did not)."""
        since = self.since(commits)
        return tuple(r for r in self.runs if since is None or r.first < since)

    @property
    def stranded_commits(self) -> int:
        return sum(run.last - run.first + 1 for run in self.runs)


@dataclass(frozen=True)
class StrandsSummary:
    line: str  # the range as given (HEAD's line by default)
    commits: tuple[str, ...]  # labels, oldest first
    subjects: tuple[str, ...]
    clients: tuple[str, ...]
    apis: tuple[tuple[int, str], ...]  # (key, newest name) of the APIs judged
    roles: tuple[str, ...]
    lines: tuple[ClientLine, ...]
    seconds: float = 0.0
    timings: Mapping[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def name_of(self, key: int) -> str:
        return dict(self.apis).get(key, str(key))

    def to_json(self) -> dict[str, Any]:
        return {
            "command": COMMAND,
            "line": self.line,
            "commits": list(self.commits),
            "subjects": list(self.subjects),
            "clients": list(self.clients),
            "apis": [[k, n] for k, n in self.apis],
            "roles": list(self.roles),
            "lines": [
                {
                    "client": line.client,
                    "since": self._label(line.since(len(self.commits))),
                    "runs": [[r.first, r.last, list(r.apis)] for r in line.runs],
                }
                for line in self.lines
            ],
            "seconds": self.seconds,
            "timings": dict(self.timings),
            "notes": list(self.notes),
        }

    def _label(self, index: int | None) -> str | None:
        return None if index is None else self.commits[index]

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> StrandsSummary:
        """A summary as written (a ValueError, TypeError or KeyError when it is not one)."""
        commits = tuple(_strings(data["commits"]))
        lines = []
        for entry in data["lines"]:
            runs = []
            for first, last, apis in entry["runs"]:
                if not (0 <= int(first) <= int(last) < len(commits)):
                    raise ValueError(f"a run {first}..{last} outside the {len(commits)} commits")
                runs.append(Run(int(first), int(last), tuple(int(k) for k in apis)))
            lines.append(ClientLine(str(entry["client"]), tuple(runs)))
        subjects = tuple(_strings(data.get("subjects") or [""] * len(commits)))
        if len(subjects) != len(commits):
            raise ValueError("as many subjects as commits")
        return StrandsSummary(
            str(data.get("line") or ""),
            commits,
            subjects,
            tuple(_strings(data["clients"])),
            tuple((int(k), str(n)) for k, n in data["apis"]),
            tuple(_strings(data.get("roles") or [])),
            tuple(lines),
            float(data.get("seconds") or 0.0),
            {str(k): float(v) for k, v in (data.get("timings") or {}).items()},
            tuple(_strings(data.get("notes") or [])),
        )


def _strings(values: Sequence[Any]) -> list[str]:
    if not isinstance(values, list):
        raise TypeError("not a list")
    return [str(v) for v in values]


def is_strands(data: Mapping[str, Any]) -> bool:
    return data.get("command") == COMMAND


def render_json(summary: StrandsSummary) -> str:
    """``summary.json``'s document, the characters a terminal acts on ``\\u``-escaped."""
    import json

    from kcompat.escaping import json_safe

    return json_safe(json.dumps(summary.to_json(), indent=2, ensure_ascii=False)) + "\n"


def render_text(summary: StrandsSummary) -> str:
    """Per client release: since which commit it is stranded (and on what), or never;
    and how often the line stranded it before."""
    count = len(summary.commits)
    head = (
        f"kcompat strands: {count} commit{'s' if count != 1 else ''} of "
        f"{summary.line or 'HEAD'} × {len(summary.clients)} client releases × "
        f"{len(summary.apis)} APIs ({', '.join(summary.roles)})"
    )
    rows = [("client", "stranded since", "on APIs", "stranded before")]
    for line in summary.lines:
        since = line.since(count)
        earlier = line.earlier(count)
        before = "never"
        if earlier:
            commits = sum(r.last - r.first + 1 for r in earlier)
            first = earlier[0]
            names = ", ".join(summary.name_of(k).removesuffix("Request") for k in first.apis)
            before = (
                f"{commits} commit{'s' if commits != 1 else ''}, from "
                f"{summary.commits[first.first]}: {names}"
                + (f" (and {len(earlier) - 1} more runs)" if len(earlier) > 1 else "")
            )
        if since is None:
            rows.append((line.client, "never", "", before))
        else:
            keys = dict.fromkeys(k for run in line.final(count) for k in run.apis)
            apis = ", ".join(summary.name_of(k).removesuffix("Request") for k in keys)
            subject = summary.subjects[since]
            rows.append((line.client, f"{summary.commits[since]} {subject}"[:60], apis, before))
    widths = [max(len(shown(row[i])) for row in rows) for i in range(3)]
    out = [shown(head), "", "Since which commit each client release can no longer talk to the line"]
    for row in rows:
        cells = [shown(row[i]).ljust(widths[i]) for i in range(3)]
        out.append(("  " + "  ".join(cells) + "  " + shown(row[3])).rstrip())
    for note in summary.notes:
        out.append(f"note: {shown(note)}")
    return "\n".join(out) + "\n"
