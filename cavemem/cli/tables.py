"""Tables for people: rich tables on a terminal, the plain aligned text everywhere else.

Pipes and scripts get the same plain text as always (stable, no escape codes); a terminal gets a
rich table. rich honours ``NO_COLOR``; it is imported only when a table is drawn for a terminal.
"""

from __future__ import annotations

from . import io


def for_stdout():
    """The ``table(rows, right=…)`` function to hand to a renderer for what goes to stdout."""
    if not io.stdout_is_tty():
        from ..memory.render import plain_table

        return plain_table
    return rich_table


def rich_table(rows: list[tuple[str, ...]], right=frozenset()) -> list[str]:
    """Rows (first = header) drawn as a rich table, returned as text lines for the terminal."""
    if not rows:
        return []
    import shutil

    from rich.console import Console
    from rich.table import Table

    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for i, head in enumerate(rows[0]):
        table.add_column(head, justify="right" if i in right else "left", overflow="fold")
    for row in rows[1:]:
        table.add_row(*(_escape(c) for c in row))
    console = Console(force_terminal=True, width=shutil.get_terminal_size((120, 24)).columns, highlight=False)
    with console.capture() as cap:
        console.print(table)
    return cap.get().rstrip("\n").split("\n")


def _escape(cell: str) -> str:
    from rich.markup import escape

    return escape(cell)
