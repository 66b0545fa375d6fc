"""fields-reordered: the fields of a released version on the wire in another order.

One finding per struct definition and change, with every version it breaks: a common
struct used in two places, or reordered in several runs of versions, is one reordering.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kcompat.findings import Reporter, Severity
from kcompat.rules.evolution.adapters import pair_rule
from kcompat.rules.evolution.common import node
from kcompat.rules.evolution.pairing import MessagePair, StructPair
from kcompat.rules.registry import Category
from kcompat.spec.resolve import LayoutField
from kcompat.spec.versions import Versions, released_phrase


@pair_rule("fields-reordered", Category.FIELDS, Severity.ERROR)
def fields_reordered(pair: MessagePair, report: Reporter) -> None:
    """Fields of a released version change order (even two of the same type)."""
    # One finding per struct definition and change: a common struct used in two places,
    # or broken in several versions, is one reordering, not one per use and version.
    groups: dict[tuple[str, tuple[str, ...], tuple[str, ...]], _Reorder] = {}
    for struct_pair in pair.struct_pairs:
        before, after = _orders(struct_pair)
        names_before = [b.name for b, _ in before]
        names_after = [h.name for _, h in after]
        if names_before == names_after:
            continue
        differ = [
            i for i, (x, y) in enumerate(zip(names_before, names_after, strict=True)) if x != y
        ]
        first, last = differ[0], differ[-1]
        key = (
            struct_pair.head.name,
            tuple(names_before[first : last + 1]),
            tuple(names_after[first : last + 1]),
        )
        head_entry, base_entry = after[first][1], after[first][0]  # one field, both sides
        group = groups.setdefault(key, _Reorder(head_entry, base_entry))
        group.versions.append(struct_pair.versions)
        group.owners.append(struct_pair.path or pair.head.name)
    for (struct_name, old, new), group in groups.items():
        versions = Versions.from_ranges(r for part in group.versions for r in part.ranges)
        owners = sorted(set(group.owners))
        used = f" (used by {', '.join(owners)})" if len(owners) > 1 else ""
        report.changed(
            node(group.head),
            node(group.base),
            "name",
            f"fields of {struct_name} were reordered in {released_phrase(versions)}: "
            f"{', '.join(old)} became {', '.join(new)}{used}",
            field_path=group.head.path,
            versions=versions,
            hint="fields go on the wire in spec order, so every reader of these versions "
            "misreads them; put them back in their old order",
        )


Matched = list[tuple[LayoutField, LayoutField]]


def _orders(struct_pair: StructPair) -> tuple[Matched, Matched]:
    """The untagged fields both sides have, in BASE's wire order and in HEAD's.

    Positions are found by identity, once per struct pair: a ``tuple.index`` per field
    compared whole layouts field by field and made this quadratic in the fields.
    """
    matched = [(b, h) for b, h in struct_pair.matched if not b.tagged and not h.tagged]
    base_at = {id(f): i for i, f in enumerate(struct_pair.base.fields)}
    head_at = {id(f): i for i, f in enumerate(struct_pair.head.fields)}
    before = sorted(matched, key=lambda bh: base_at[id(bh[0])])
    after = sorted(matched, key=lambda bh: head_at[id(bh[1])])
    return before, after


@dataclass
class _Reorder:
    head: LayoutField
    base: LayoutField
    versions: list[Versions] = field(default_factory=list)
    owners: list[str] = field(default_factory=list)
