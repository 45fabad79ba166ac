"""eurosearch: search engines for modern Euro board games, on a native C core.

    import eurosearch as es
    g = es.game("vienna", players=3)
    s = g.new_state(seed=7)
    while not s.is_terminal():
        ...
"""

from . import agents
from .api import CHANCE, TERMINAL, Game, State, game, game_spec, games
from .errors import DataError, IllegalMoveError, StateFormatError
from .paths import include_dir, library_path
from .solve import SolveResult, solve

__version__ = "0.1.0"

__all__ = [
    "CHANCE", "TERMINAL", "Game", "State", "game", "game_spec", "games",
    "DataError", "IllegalMoveError", "StateFormatError", "include_dir", "library_path",
    "SolveResult", "agents", "solve",
]
