"""Exact endgame solving: one position (``solve``) or many (``run_bulk``, ``eurosearch solve``)."""

from .bulk import BulkSummary, SolveSettings, finished_ids, repair_output, run_bulk, solve_batch
from .positions import Position, PositionError, generate_positions, parse_line, read_positions
from .solver import MODES, OBJECTIVES, SolveResult, solve

__all__ = [
    "BulkSummary", "MODES", "OBJECTIVES", "Position", "PositionError", "SolveResult", "SolveSettings",
    "finished_ids", "generate_positions", "parse_line", "read_positions", "repair_output", "run_bulk",
    "solve", "solve_batch",
]
