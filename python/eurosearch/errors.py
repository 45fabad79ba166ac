"""Exceptions of the public API (all are ValueErrors)."""

from .gamedata import DataError


class IllegalMoveError(ValueError):
    """A move or chance outcome that is not legal in the state; the state is unchanged."""


class StateFormatError(ValueError):
    """Bytes or JSON that are not a valid state of this game (corrupt, truncated, foreign)."""


__all__ = ["DataError", "IllegalMoveError", "StateFormatError"]
