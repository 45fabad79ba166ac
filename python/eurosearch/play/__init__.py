"""Playing against the AI: sessions, game records, the terminal game and the web page."""

from .record import GameRecord, Step, data_fingerprint, load_record, parse_record
from .session import HUMAN, Session, analyse, default_ai

__all__ = ["GameRecord", "HUMAN", "Session", "Step", "analyse", "data_fingerprint", "default_ai", "load_record",
           "parse_record"]
