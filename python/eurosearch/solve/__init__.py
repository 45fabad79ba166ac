"""Exact endgame solving: one position (``solve``) or many (``run_bulk``, ``eurosearch solve``)."""

from .bulk import BulkSummary, JobError, SolveSettings, format_summary, run_bulk, solve_one
from .positions import Position, PositionError, PositionFile, generate_positions, parse_line, read_positions
from .solver import MODES, OBJECTIVES, SolveResult, solve

__all__ = [
    "BulkSummary", "JobError", "MODES", "OBJECTIVES", "Position", "PositionError", "PositionFile",
    "SolveResult", "SolveSettings", "format_summary", "generate_positions", "parse_line", "read_positions",
    "run_bulk", "solve", "solve_one",
]
