"""The C core against the plain Python reference for Wolsung, step by step (PROVISIONAL data).

Both implement shared/rules/wolsung.md through docs/wolsung_engine.md independently; at every
step they must agree on the current player, the legal moves, the chance outcomes with their
exact probabilities, the scores and, at the end, the returns. 200 seeded random games per player
count (2, 3 and 4) across option sets; in the games with hidden placement (spec 4.9) also what
every viewer sees of the workers in the factories after every step; then a coverage test that
those games reached every move kind, every chance event, the neutral, both deck events, the
Strike, every upgrade and the hidden placements.
Disagreements are judged from the spec in FINDINGS.md.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from lockstep import play_both
from test_reference_wolsung import provisional_data

import eurosearch as es
from eurosearch.reference import wolsung as ref_mod
from eurosearch.reference.wolsung import NEUTRAL, WolsungReference, from_game_data

if "wolsung" not in es.games():
    pytest.skip("the native Wolsung engine is not registered in this build", allow_module_level=True)

pytestmark = pytest.mark.provisional

GAMES_PER_COUNT = 200
OPTION_SETS = [
    {},
    {"exchange_allows_gold_input": True, "converter_accepts_gold": True},
    {"finite_supply": True, "fe_forced_last_factory_only": True},
    {"fe_single_pick_only": True, "time_machine_per_factory": True, "strike_returns_at_22": True},
    {"start_player": 1, "hidden_placement": True},   # section 4.9: the views are compared too
]

KIND_NAMES = {
    ref_mod.PLACE: "PLACE", ref_mod.TIME: "TIME_MACHINE", ref_mod.PICK: "PICK", ref_mod.PASS: "PASS",
    ref_mod.BUILD: "BUILD", ref_mod.UPGRADE: "UPGRADE", ref_mod.DRAW: "DRAW", ref_mod.DEAL: "DEAL",
    ref_mod.START: "START", ref_mod.STRIKE: "STRIKE", ref_mod.TIE: "TIE",
    ref_mod.NCOUNT: "NEUTRAL_COUNT", ref_mod.NORDER: "NEUTRAL_ORDER", ref_mod.CHANGE: "CHANGE",
}

#: What the games reached, summed over every game of this module (for the coverage test).
REACHED: Counter[str] = Counter()
PLAYED: set[int] = set()


class Recording:
    """The reference state, recording what each applied move or outcome did (for coverage)."""

    def __init__(self, state, native=None):
        self.state = state
        self.native = native        # hidden placement: the native state, to compare the views
        self.tm_uses: Counter[tuple[int, int]] = Counter()

    def __getattr__(self, name):
        return getattr(self.state, name)

    def apply(self, move: int) -> None:
        s = self.state
        kind, arg = move % ref_mod.KIND, move // ref_mod.KIND
        name = KIND_NAMES[kind]
        REACHED[name] += 1
        before_round, before_deck, before_discard = s.round, len(s.deck), len(s.discard)
        if name == "PICK" and arg == ref_mod.FE_PICK:
            REACHED["PICK the First Engineer"] += 1
        elif name in ("BUILD", "UPGRADE"):
            pl = s.players[s.actor]
            if name == "UPGRADE":
                REACHED[f"UPGRADE {arg % 3}"] += 1
            paid = [a - b for a, b in zip(pl.storage, ref_mod.storage_from_code(arg // 3))]
            if name == "BUILD":
                cost = s.ref.data.machines[s.office[arg % 3]].cost
                if paid[ref_mod.GOLD] > cost[ref_mod.GOLD]:
                    REACHED["BUILD with the 3-gold exchange"] += 1
                result = ref_mod.storage_from_code(arg // 3)
                if result not in ref_mod.machine_payments(tuple(pl.storage), cost, False, False, False):
                    REACHED["BUILD with the Converter"] += 1
            elif sum(paid[:4]) > 0:
                REACHED["UPGRADE with 3 cubes for a gold"] += 1
            if name == "UPGRADE" and ref_mod.storage_from_code(arg // 3) not in ref_mod.upgrade_payments(
                    tuple(pl.storage), ref_mod.UPGRADE_COST[arg % 3], False):
                REACHED["UPGRADE with gold among the 3 cubes (exchange_allows_gold_input)"] += 1
            if name == "BUILD" and result not in ref_mod.machine_payments(
                    tuple(pl.storage), cost, pl.upgrades[ref_mod.CONVERTER], False, False):
                REACHED["BUILD with gold as a Converter substitute (converter_accepts_gold)"] += 1
        elif name == "CHANGE":
            REACHED[f"CHANGE {arg}"] += 1
        elif name == "TIME_MACHINE" and arg:
            REACHED["TIME_MACHINE used"] += 1
            self.tm_uses[s.round, s.actor] += 1
            if self.tm_uses[s.round, s.actor] == 2:
                REACHED["TIME_MACHINE twice in a round (time_machine_per_factory)"] += 1
        elif name == "STRIKE" and s.phase == "setup":
            REACHED["STRIKE at setup"] += 1
        elif name == "TIE" and NEUTRAL in [arg // 5 ** i % 5 for i in range(len(s.ranking[0]))]:
            REACHED["TIE with the neutral"] += 1
        if self.native is not None and name == "PLACE":
            REACHED["PLACE seen as its total only (hidden_placement)"] += s.move_view(move, (s.actor + 1) % s.ref.players) != move
        s.apply(move)
        if self.native is not None:
            compare_views(self.native, s)
        if NEUTRAL in s.track and s.phase == "factory":
            REACHED["neutral on the order track"] += 1
        if before_round == ref_mod.ROUND_MERGE_B and s.round != before_round and len(s.deck) > before_deck:
            REACHED["round 12: deck B merged"] += 1
        if before_round == ref_mod.ROUND_RECYCLE and s.round != before_round and len(s.discard) < before_discard:
            REACHED["round 22: discarded machines back"] += 1
            if s.ref.data.strike in s.deck or s.ref.data.strike in s.office:
                REACHED["round 22: the Strike back (strike_returns_at_22)"] += 1
        if s.general is not None and s.phase == "machine" and any(
                s.sidings[f] != list(s.ref.data.sidings[f][s.ref.mode]) for f in range(3)):
            REACHED["finite supply: a siding refilled short"] += 1
        if s.is_terminal():
            if len(s.winners) > 1:
                REACHED["shared win"] += 1
            if any(s._task_points(p) for p in range(s.ref.players)):
                REACHED["task points scored"] += 1


def compare_views(native, ref) -> None:
    """Section 4.9: the workers in the factories each viewer sees, native (its observation, whose
    seat rows hold them, seats relative to the viewer) against the reference's visible_workers."""
    n = ref.ref.players
    offset, (_, width) = next((off, shape) for name, off, shape in native.game.observation_layout() if name == "seats")
    for viewer in range(n):
        obs = native.observation(viewer)
        seen, hidden = ref.visible_workers(viewer)
        for k in range(n):
            p = (viewer + k) % n
            row = obs[offset + k * width:][:width]
            assert [round(float(x) * 8) for x in row[7:10]] == seen[p], f"viewer {viewer} sees seat {p}'s workers"
            if hidden[p]:
                REACHED["a placement hidden from a viewer (hidden_placement)"] += 1
            if p != viewer and ref.open_factory() is not None and seen[p][ref.open_factory()]:
                REACHED["hidden placement counted at the opening (hidden_placement)"] += 1


def play(players: int, options: dict, seed: int) -> int:
    g = es.game("wolsung", players=players, options=options)
    native = g.initial_state()
    ref = Recording(WolsungReference(g.data, players, g.options).initial_state(),
                    native if options.get("hidden_placement") else None)
    return play_both(native, ref, random.Random(seed))


def test_data_file_is_the_spec_provisional_set():
    """The engine's data file holds the spec's provisional data set P1-P7 exactly."""
    g = es.game("wolsung", players=3)
    assert from_game_data(g.data) == provisional_data()


def case(index: int) -> tuple[int, dict]:
    players = 2 + index % 3
    return players, OPTION_SETS[(index // 3) % len(OPTION_SETS)]


@pytest.mark.parametrize("index", range(3 * GAMES_PER_COUNT))
def test_native_matches_reference(index: int) -> None:
    players, options = case(index)
    assert play(players, options, index) > 100
    PLAYED.add(index)


COVERED = [
    "PLACE", "TIME_MACHINE", "TIME_MACHINE used", "PICK", "PICK the First Engineer", "PASS",
    "BUILD", "UPGRADE", "UPGRADE 0", "UPGRADE 1", "UPGRADE 2",
    "BUILD with the 3-gold exchange", "BUILD with the Converter",
    "UPGRADE with 3 cubes for a gold",
    "DRAW", "DEAL", "START", "STRIKE", "TIE", "NEUTRAL_COUNT", "NEUTRAL_ORDER",
    "CHANGE 0", "CHANGE 1", "TIE with the neutral", "neutral on the order track",
    "round 12: deck B merged", "round 22: discarded machines back", "task points scored",
    # the option switches' own situations
    "UPGRADE with gold among the 3 cubes (exchange_allows_gold_input)",
    "BUILD with gold as a Converter substitute (converter_accepts_gold)",
    "TIME_MACHINE twice in a round (time_machine_per_factory)", "STRIKE at setup",
    "round 22: the Strike back (strike_returns_at_22)", "finite supply: a siding refilled short",
    "PLACE seen as its total only (hidden_placement)", "a placement hidden from a viewer (hidden_placement)",
    "hidden placement counted at the opening (hidden_placement)",
]


def test_coverage_of_the_differential_games():
    """Every move kind, every chance event (C1-C10 as nodes), the neutral, the Strike, both deck
    events and every upgrade were reached in the games above (run after them, same module)."""
    for index in range(3 * GAMES_PER_COUNT):            # the games not played above (run alone)
        if index not in PLAYED:
            play(*case(index), index)
            PLAYED.add(index)
    missing = [c for c in COVERED if REACHED[c] == 0]
    assert not missing, f"never reached: {missing}; reached: {dict(REACHED)}"


def test_n1_blocked_picker_takes_the_fe_in_a_non_last_factory():
    """FINDINGS.md N1, WO-A4 (FE_FORCED_LAST_FACTORY_ONLY) with WO-A11: in round 9 (F1 then F2),
    P0 alone ranks in F1 and holds 4 of every cube on F1's siding. The FE is then P0's only
    legal pick and picks are compulsory, so P0 takes it; the flag only lets picking *end* with
    the FE on the board once no pick is possible. Random games never reach this position, so it
    is built from a native state edited through its JSON form (round 9's worker phase)."""
    import json

    g = es.game("wolsung", players=3, options={"fe_forced_last_factory_only": True, "start_player": 0})
    s = g.initial_state()
    rng = random.Random(0)
    while True:                                           # to round 9, every worker into F3
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(64)))
            continue
        moves = s.legal_moves()
        if json.loads(s.to_json(format=1))["state"]["round"] == 9 and all(m % 32 == 1 for m in moves):
            break
        place = [m for m in moves if m % 32 == 1 and (m // 32) % 25 == 0]
        s.apply(place[0] if place else (4 if 4 in moves else moves[0]))
    doc = json.loads(s.to_json(format=1))
    st = doc["state"]
    assert st["fe"] == -1 and st["siding"][0] == [1, 1, 2, 2, 0]
    st["storage"][0] = [4, 4, 4, 4, 0]
    st["fac"][0], st["workshop"][0] = [1, 0, 0], st["workshop"][0] - 1    # P0: 1 worker in F1
    st["fac"][1][1], st["workshop"][1] = 1, st["workshop"][1] - 1          # P1: 1 worker in F2
    s = g.state_from_json(json.dumps(doc))
    for _ in range(3):
        s.apply(next(m for m in s.legal_moves() if m % 32 == 1 and (m // 32) % 25 == 0))
    while s.is_chance():
        s.apply(s.sample_chance(1))
    assert json.loads(s.to_json(format=1))["state"]["fe"] == 0, "P0 had to take the FE in F1"
