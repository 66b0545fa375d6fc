"""``kcompat changelog BASE [HEAD]``: what a change or a release does to the protocol."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

from kcompat.app import (
    Color,
    ColorOption,
    ConfigOption,
    ReleasedOption,
    Sides,
    app,
    format_option,
    option_group,
)
from kcompat.changelog.formats import ChangelogFormat

if TYPE_CHECKING:
    from kcompat.changelog.model import Changelog


ChangelogFormatOption = Annotated[ChangelogFormat, format_option(ChangelogFormat)]


@app.command(short_help="What a change or a release does to the protocol.")
@option_group
def changelog(
    sides: Sides,
    released: ReleasedOption = None,
    fmt: ChangelogFormatOption = ChangelogFormat.text,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
) -> None:
    """Every protocol change between BASE and HEAD, grouped by message: messages and
    versions added or removed, what each new version adds, and diff's breaks."""
    from kcompat.cache import user_cache
    from kcompat.changelog.run import run_changelog
    from kcompat.config import ConfigChoice
    from kcompat.diff.options import RunOptions
    from kcompat.escaping import shown

    options = RunOptions(
        released=released,
        config_choice=ConfigChoice(config_file),
        cache=user_cache(),  # what release texts say, kept for the next run
    )
    result = run_changelog(sides.request(options))
    if result.note:
        print(f"kcompat: note: {shown(result.note)}", file=sys.stderr)
    show(result.changelog, fmt, color)


def show(changelog: Changelog, fmt: ChangelogFormat, color: Color) -> None:
    """Print a changelog in a format (``kcompat explain --since`` prints with it too)."""
    from kcompat.terminal import write_output

    write_output(fmt.renderer()(changelog), color)
