"""The tables that ``match``, ``arena``, ``solve`` and ``bench`` print, drawn by ``rich``.

One layout, two looks: to a terminal, a bold header over a rule, in the terminal's width;
anywhere else (a pipe, a file, a test capturing output), plain text -- no colour codes, no
box characters, columns two spaces apart, no line folded -- so that logs stay readable and
``grep`` / ``awk`` still work. ``--json`` output never comes through here.
"""

from __future__ import annotations

import io
import shutil
import sys
from typing import Sequence

from rich import box
from rich.console import Console
from rich.table import Table

Column = tuple[str, str]     # (header, "left" or "right")


def stdout_is_terminal() -> bool:
    """Whether the human output goes to a terminal (then it gets rich's styling)."""
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def render(columns: Sequence[Column], rows: Sequence[Sequence[str]], title: str | None = None,
           notes: Sequence[str] = (), terminal: bool = False) -> str:
    """A title line, the table and note lines, as one string without a final newline.

    Cells are given as text (each caller formats its numbers); ``terminal`` picks the look."""
    table = Table(box=box.SIMPLE_HEAD if terminal else None, show_edge=False, pad_edge=False,
                  header_style="bold" if terminal else None, highlight=False)
    for header, justify in columns:
        table.add_column(header, justify=justify, no_wrap=True)   # type: ignore[arg-type]
    for row in rows:
        table.add_row(*row)
    out = io.StringIO()
    if terminal:
        console = Console(file=out, force_terminal=True, highlight=False,
                          width=max(shutil.get_terminal_size().columns, 40))
    else:       # wide enough that nothing folds; rich writes no trailing blanks without a box
        console = Console(file=out, force_terminal=False, no_color=True, color_system=None,
                          highlight=False, width=100_000)
    if title:
        console.print(title, style="bold" if terminal else None, markup=False)
    console.print(table)
    for note in notes:
        console.print(note, markup=False)
    return out.getvalue().rstrip("\n")
