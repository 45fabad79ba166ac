"""EUROSEARCH_PORTABLE: the core's CPU-specific path (BMI2's pdep to pick the k-th member of a
set, where the CPU runs it fast) plays exactly the games the portable code plays.

Each run is a fresh interpreter, since the library reads the variable when it is loaded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"

# bench/fingerprint.py's digests of every game (seeded random games, MCTS with playouts to the
# end and of 20 decisions, with information sets, expectimax, the evaluation): the set selection
# is in draws, random moves and determinization.
SCRIPT = f"""
import json, sys
sys.path.insert(0, {str(BENCH)!r})
import fingerprint
from eurosearch import _native
print(json.dumps({{"pdep": _native.USES_PDEP, **fingerprint.fingerprints()}}))
"""


def _run(portable: bool, script: str = SCRIPT) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "EUROSEARCH_PORTABLE"}
    if portable:
        env["EUROSEARCH_PORTABLE"] = "1"
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_variable_turns_the_cpu_specific_path_off():
    flag_only = 'import json; from eurosearch import _native; print(json.dumps({"pdep": _native.USES_PDEP}))'
    assert _run(portable=True, script=flag_only)["pdep"] is False


def test_pdep_and_portable_play_the_same_games():
    fast = _run(portable=False)
    if not fast.pop("pdep"):
        pytest.skip("this CPU has no fast pdep: only the portable path runs here")
    portable = _run(portable=True)
    assert portable.pop("pdep") is False
    assert fast == portable
