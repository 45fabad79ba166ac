"""``eurosearch data``: the bundled component data as a template for a game's owner, and a
check of an owner's file (valid for every player count, and what is still provisional)."""

from __future__ import annotations

import re
from pathlib import Path

from .api import game, game_spec, games
from .gamedata import DataError

HEADER = "# eurosearch-game: "
MARK = "   # PROVISIONAL: check against your box, then change the tag"


def bundled_path(name: str) -> Path:
    game_spec(name)   # ValueError naming the games for an unknown name
    return Path(__file__).parent / "data" / f"{name}.toml"


def template(name: str) -> str:
    """The bundled data file of `name`, with a header naming the game and every line that
    holds a provisional tag marked for the owner (TOML comments: the file still loads as is)."""
    lines = [f"{HEADER}{name}",
             "# Template for an owner of the game: correct every line marked PROVISIONAL from the",
             "# printed components, set its tag to \"rulebook\", then run",
             f"#   eurosearch data check THIS_FILE     and load it with es.game({name!r}, data=THIS_FILE)"]
    for line in bundled_path(name).read_text(encoding="utf-8").splitlines():
        code = line.split("#", 1)[0]
        lines.append(line + MARK if re.search(r'"provisional"', code) else line)
    return "\n".join(lines) + "\n"


def game_of(path: Path) -> str | None:
    """The game a file names in its template header, or None."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(HEADER):
                return line[len(HEADER):].strip()
            if line.strip() and not line.startswith("#"):
                return None
    return None


def check(path: str | Path, name: str | None = None) -> tuple[str, dict]:
    """Load `path` as `name`'s data (default: the game its header names) at every player
    count; DataError naming the entry and the field for anything wrong. Returns the game and
    its data_sources() report."""
    path = Path(path)
    if not path.is_file():
        raise DataError(f"{path}: no such file")
    name = name or game_of(path)
    if name is None:
        raise DataError(f"{path}: no '{HEADER.strip()}' header line; say which game with --game "
                        f"({', '.join(games())})")
    spec = game_spec(name)
    report = None
    for players in range(spec.min_players, spec.max_players + 1):
        report = game(name, players=players, data=path).data_sources()
    return name, report
