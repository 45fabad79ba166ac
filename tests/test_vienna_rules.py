"""The worked examples of the Vienna rules spec, against the NATIVE engine.

Every item of ``shared/rules/vienna.md`` section 10 (T1..T17 with T3b, T3c, T4b-T4d, T5a-T5d)
is a test here, negative checks included, plus the resolutions of section 9 (VI-A..) that the
examples leave out, as far as they are observable. A test that pins an ambiguity's resolution
names its id (``VI_A8``...) in its name or docstring.

Boards: the spec's fixture boards TB and TB-X, as data files ``tests/data/vienna_tb.toml`` and
``tests/data/vienna_tbx.toml`` (fixture values are tagged "provisional"; see their headers).
The starting cards there carry the symbol counts the examples need, so the examples' symbol
positions come from the draft.

Positions are reached from ``g.initial_state()`` (start player fixed to seat 0) by applying
chosen chance outcomes and moves, written as the engine's text moves. A few tests edit the
state through ``to_json`` / ``state_from_json`` where play cannot reach the position in
reasonable length (S2 on a board without its field, final-scoring VP, a prepared person deck,
symbols pre-marked as evaluated); each says so.

Move ids for negative checks are built from the bit layout of docs/vienna_engine.md.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

import eurosearch as es

HERE = Path(__file__).resolve().parent
BOARDS = {"tb": HERE / "data" / "vienna_tb.toml", "tbx": HERE / "data" / "vienna_tbx.toml"}

# Seats of the rulebook's examples (spec 10): clockwise Tuende -> Peter -> Moni.
TUENDE, PETER, MONI = 0, 1, 2
# Special cards in engine order (S1..S5).
S1, S2, S3, S4, S5 = range(5)
CITIZEN, CROSS, CROWN = 1, 2, 4          # sym_used bits

# Move types (docs/vienna_engine.md, "Move ids")
PLACE, REROLL, NUDGE, GENDARME = 2, 3, 4, 5
GEHEIMBUND = 31


# ---------------------------------------------------------------- helpers

def new_game(players: int, board: str = "tb", **opts) -> es.Game:
    return es.game("vienna", players=players, data=str(BOARDS[board]),
                   options={"start_player": 0, **opts})


def st(s: es.State) -> dict:
    """The state fields (csrc/games/vienna.h names) of ``s``."""
    return json.loads(s.to_json(format=1))["state"]


def texts(s: es.State) -> set[str]:
    if s.is_chance():
        return {s.move_to_str(m) for m, _ in s.chance_outcomes()}
    return {s.move_to_str(m) for m in s.legal_moves()}


def places(s: es.State) -> set[str]:
    return {t for t in texts(s) if t.startswith("place ")}


def fidx(g: es.Game, field_id: str) -> int:
    return g.data.field_index(field_id)


def place_id(field: int, c1: int = 0, c2: int = 0, white: bool = False) -> int:
    return PLACE | field << 4 | c1 << 9 | c2 << 12 | int(white) << 15


def nudge_id(face: int, up: bool, white: bool = False) -> int:
    return NUDGE | face << 4 | int(up) << 7 | int(white) << 8


def hand(s: es.State, p: int) -> list[int]:
    """Unplaced coloured dice of p, as a sorted list of faces."""
    return [f + 1 for f, c in enumerate(st(s)["hand"][p]) for _ in range(c)]


def coins(s: es.State) -> list[int]:
    return st(s)["coins"][: s.game.players]


def vps(s: es.State) -> list[int]:
    return st(s)["vp"][: s.game.players]


def owners(s: es.State) -> list[int]:
    return st(s)["special_owner"]


def roller(s: es.State) -> int:
    """Who rolls at a roll chance node (the node's actor)."""
    return st(s)["actor"]


def is_reveal(s: es.State) -> bool:
    return s.is_chance() and s.move_to_str(s.chance_outcomes()[0][0]).startswith("reveal")


def is_roll(s: es.State) -> bool:
    return s.is_chance() and s.move_to_str(s.chance_outcomes()[0][0]).startswith("roll")


def apply_text(s: es.State, text: str) -> int:
    move = s.str_to_move(text)          # IllegalMoveError when no legal move reads so
    s.apply(move)
    return move


def do(s: es.State, step: str) -> float | None:
    """Apply one step; ``"P2: place oper 2"`` also checks who acts (at a roll: who rolls).

    ``"P2: gb"`` places two (else one) of P2's dice on Geheimbund. A chance step returns its
    probability.
    """
    seat = None
    if step[:1] == "P" and ":" in step[:4]:
        head, step = step.split(":", 1)
        seat, step = int(head[1:]), step.strip()
    if s.is_chance():
        assert step.startswith(("roll", "reveal", "start")), (step, str(s))
        if seat is not None:
            assert roller(s) == seat, (step, str(s))
        probs = {s.move_to_str(m): p for m, p in s.chance_outcomes()}
        assert step in probs, (step, sorted(probs)[:20], str(s))
        apply_text(s, step)
        return probs[step]
    if seat is not None:
        assert s.current_player == seat, (seat, step, str(s))
    if step == "gb":
        gb = [m for m in s.legal_moves() if m & 0xF == PLACE and (m >> 4) & 0x1F == GEHEIMBUND]
        assert gb, str(s)
        # two dice before one, coloured before white, high faces first
        s.apply(max(gb, key=lambda m: ((((m >> 9) & 7) > 0) + (((m >> 12) & 7) > 0) + ((m >> 15) & 1),
                                       -((m >> 15) & 1), (m >> 12) & 7, (m >> 9) & 7)))
        return None
    assert step in texts(s), (step, sorted(texts(s)), str(s))
    apply_text(s, step)
    return None


def play(s: es.State, *steps: str) -> None:
    for step in steps:
        do(s, step)


def start(g: es.Game, picks: dict[int, str], display=("P01", "P02", "P03", "P04")) -> es.State:
    """Initial state, draft (seat -> starting card) and the first display."""
    s = g.initial_state()
    for _ in range(g.players):
        assert not s.is_chance()
        do(s, f"draft {picks[s.current_player]}")
    for t in display[: g.players - 1]:
        do(s, f"reveal {t}")
    assert is_roll(s) and st(s)["round"] == 1
    return s


def fill(s: es.State, roll: str | None = None) -> None:
    """Play on with filler: all-6 rolls (or ``roll``) and two dice on Geheimbund per turn,
    until the node is no roll and no placement decision (evaluation decision, reveal, end)."""
    k = 5 if s.game.players == 3 else 4
    while not s.is_terminal():
        if is_roll(s):
            want = roll or ",".join(["6"] * k)
            opts = [t for t in texts(s) if t == f"roll {want}" or t.startswith(f"roll {want} W")]
            assert opts, str(s)
            apply_text(s, sorted(opts)[-1])
        elif not s.is_chance() and any(t.startswith("place geheimbund") for t in texts(s)):
            do(s, "gb")
        elif not s.is_chance() and texts(s) == {"double yes", "double no"}:
            do(s, "double no")
        else:
            return


def edited(g: es.Game, s: es.State, **changes) -> es.State:
    """A copy of ``s`` with state fields replaced (``key=value`` or ``key=callable(state)``)."""
    doc = json.loads(s.to_json(format=1))
    for key, value in changes.items():
        doc["state"][key] = value(doc["state"]) if callable(value) else value
    return g.state_from_json(json.dumps(doc))


def assert_illegal(s: es.State, move: int) -> None:
    """``move`` is not legal here: not listed, and applying it raises and changes nothing."""
    assert move not in s.legal_moves()
    before = s.to_bytes()
    with pytest.raises(es.IllegalMoveError):
        s.apply(move)
    assert s.to_bytes() == before


# ---------------------------------------------------------------- the data files

def test_fixture_boards_load_and_follow_spec_section_10_VI_A1():
    """TB: 18 street fields in the spec's order; TB-X: TB with 10a-10e after field 10.
    VI-A1: the engine takes the board from the data file (here the fixture boards)."""
    tb = es.game("vienna", players=3, data=str(BOARDS["tb"])).data
    tbx = es.game("vienna", players=3, data=str(BOARDS["tbx"])).data
    tb_ids = ["krieau", "prater", "secession", "oper", "naschmarkt", "heldenplatz", "burgtheater",
              "rathaus", "universitaet", "cafe_landtmann", "hofreitschule", "gi_field", "pestsaeule",
              "stephansdom", "belvedere", "gloriette", "tiergarten", "heuriger"]
    assert [f.id for f in tb.street] == tb_ids
    assert [f.id for f in tbx.street] == tb_ids[:10] + ["cafe_a", "cafe_b", "s5_field", "s1_field",
                                                        "s3_field"] + tb_ids[10:]
    assert [f.accept for f in tb.street[:16]] == [(1,), (1,), (2,), (2,), (3,), (4,), (5,), (5,), (5,),
                                                 (6,), (7,), (7,), (8,), (9,), (10,), (11,)]
    assert [f.pair for f in tb.street[-2:]] == [True, True]
    land = lambda d: next(f for f in d.street if f.id == "cafe_landtmann")
    assert land(tb).cost == 0 and land(tbx).cost == 1          # TB's only person field is free
    assert [(f.cost) for f in tbx.street if f.kind == "person"] == [1, 1, 0]
    assert [f.accept for f in tbx.street if f.kind == "special" and f.id != "gi_field"] == [(6, 7)] * 3
    assert tb.status == tbx.status == "provisional"


def test_start_vp_per_player_count_VI_A3():
    """VI-A3: the start space comes from data, the same for every player (fixture 0 / 0 / 2)."""
    for n, want in ((3, 0), (4, 0), (5, 2)):
        g = new_game(n)
        s = g.initial_state()
        assert s.scores() == [float(want)] * n
        assert vps(s) == [want] * n


def test_setup_start_player_chance_and_draft_order():
    """Spec 3.1 steps 2 and 5: first start player uniform; draft right(sp) .. sp last; the
    picker gets the card's coins at once (VI-A4: starting cards are data) and its symbols
    (VI-A5); the display gets n - 1 cards."""
    g = es.game("vienna", players=4, data=str(BOARDS["tb"]))
    s = g.initial_state()
    assert s.current_player == es.CHANCE
    assert sorted((s.move_to_str(m), p) for m, p in s.chance_outcomes()) == \
        [(f"start P{p}", 0.25) for p in range(4)]
    do(s, "start P2")
    assert owners(s)[S1] == 2
    order = []
    for card in ("ST1", "ST2", "ST3", "ST4"):
        order.append(s.current_player)
        do(s, f"draft {card}")
    assert order == [1, 0, 3, 2]
    assert coins(s) == [2, 2, 2, 2] and st(s)["start_card"][:4] == [1, 0, 3, 2]
    assert st(s)["sym"][:4] == [[2, 2, 4], [3, 2, 1], [1, 4, 0], [3, 1, 1]]
    for t in ("P01", "P02", "P03"):
        do(s, f"reveal {t}")
    assert is_roll(s) and roller(s) == 2            # the start player rolls first
    assert bin(st(s)["display"]).count("1") == 3


def test_move_id_layout_matches_contract():
    """The ids built here for negative checks follow docs/vienna_engine.md (so a negative
    check cannot pass just because an id is malformed)."""
    g = new_game(4, "tbx")
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    do(s, "P0: roll 1,4,5,6")
    legal = set(s.legal_moves())
    for text, move in (("place secession 1+1", None), ("place krieau 1", place_id(0, 1)),
                       ("place stephansdom 4+5", place_id(fidx(g, "stephansdom"), 4, 5)),
                       ("place geheimbund 1+6", place_id(GEHEIMBUND, 1, 6)),
                       ("place s5_field 1+6", place_id(fidx(g, "s5_field"), 1, 6)),
                       ("nudge 4->5", nudge_id(4, True)), ("nudge 4->3", nudge_id(4, False)),
                       ("reroll 5", REROLL | 1 << (4 + 3 * 4))):
        if move is None:
            assert text not in texts(s)                      # only one 1
            continue
        assert move in legal and s.move_to_str(move) == text and s.str_to_move(text) == move


# ---------------------------------------------------------------- T1-T3 (board TB, 4 players)

def examples_1_3(**opts) -> es.State:
    """Tuende 0 (ST4: 2 coins), Peter 1, Moni 2, a fourth seat 3 (spec 10; VI-A41: hands are
    set explicitly, so the 4-dice roll of Example 1 needs 4 players)."""
    g = new_game(4, **opts)
    return start(g, {0: "ST4", 1: "ST2", 2: "ST3", 3: "ST6"})


def after_t1(**opts) -> es.State:
    s = examples_1_3(**opts)
    play(s, "P0: roll 2,2,3,5", "P0: place secession 2")
    return s


def after_t2_others(**opts) -> es.State:
    """T2's given: after T1, Peter -> Heldenplatz {4}, Moni -> Oper {2} (+ seat 3 on Geheimbund)."""
    s = after_t1(**opts)
    play(s, "P1: roll 4,6,6,6", "P1: place heldenplatz 4",
         "P2: roll 2,5,6,6", "P2: place oper 2",
         "P3: roll 1,1,6,6", "P3: place geheimbund 6+6")
    return s


def test_t1_roll_single_die_placement_no_free_reroll():
    """T1 (Example 1): roll {2,2,3,5} has probability 12/1296; PLACE(Secession, {2}) is legal
    at cost 0; hand {2,3,5}; carriage Secession; no roll at Tuende's next turn. VI-A13: no
    modification after the placement (the turn passes on)."""
    s = examples_1_3()
    g = s.game
    assert roller(s) == TUENDE
    p = do(s, "P0: roll 2,2,3,5")
    assert p == pytest.approx(12 / 1296, abs=1e-15)
    assert s.current_player == TUENDE
    sec = fidx(g, "secession")
    # negative checks: a 3 is not 2, and 2 + 2 = 4 is not 2
    assert_illegal(s, place_id(sec, 3))
    assert_illegal(s, place_id(sec, 2, 2))
    assert "place secession 2" in places(s) and place_id(sec, 2) in s.legal_moves()
    do(s, "P0: place secession 2")
    assert coins(s)[TUENDE] == 2                                   # cost 0
    assert hand(s, TUENDE) == [2, 3, 5]
    assert st(s)["carriage"][TUENDE] == sec
    assert is_roll(s) and roller(s) == PETER                       # VI-A13: turn is over
    play(s, "P1: roll 4,6,6,6", "P1: place heldenplatz 4",
         "P2: roll 2,5,6,6", "P2: place oper 2",
         "P3: roll 1,1,6,6", "P3: place geheimbund 6+6")
    # Tuende's next turn: no roll happens, the hand is unchanged, paid modification is offered.
    assert not s.is_chance() and s.current_player == TUENDE
    assert hand(s, TUENDE) == [2, 3, 5]
    assert {"nudge 5->6", "reroll 2,3,5"} <= texts(s)


def test_t2_two_dice_sum():
    """T2 (Example 2): PLACE(Rathaus, {2,3}) is legal (2 + 3 = 5, Rathaus after Secession) at
    cost 0; hand {5}; carriage Rathaus. Negative: Oper (occupied) is illegal for anyone."""
    s = after_t2_others()
    g = s.game
    oper = fidx(g, "oper")
    assert s.current_player == TUENDE
    assert_illegal(s, place_id(oper, 2))                           # occupied by Moni
    assert "place rathaus 2+3" in places(s)
    do(s, "P0: place rathaus 2+3")
    assert coins(s)[TUENDE] == 2
    assert hand(s, TUENDE) == [5]
    assert st(s)["carriage"][TUENDE] == fidx(g, "rathaus")
    play(s, "P1: place cafe_landtmann 6", "P2: place universitaet 5")
    # Seat 3 holds {1,1}: 1 + 1 = 2 fits Oper's value, but Oper is occupied.
    assert s.current_player == 3 and hand(s, 3) == [1, 1]
    assert_illegal(s, place_id(oper, 1, 1))
    assert "place tiergarten 1+1" in places(s)                     # the dice themselves are fine


def t3_position(**opts) -> es.State:
    """T3's given: Tuende to move with hand {5}, carriage Rathaus, 2 coins."""
    s = after_t2_others(**opts)
    play(s, "P0: place rathaus 2+3", "P1: place cafe_landtmann 6", "P2: place universitaet 5",
         "P3: place geheimbund 1+1")
    return s


def test_t3_field_taken_paid_backtrack_VI_A42():
    """T3 (Example 3): legal placements are exactly Burgtheater {5} (bribe 1) and Geheimbund
    {5}; Universitaet and Rathaus are occupied. VI-A42: Geheimbund and paid modifications stay
    legal. After Burgtheater: coins 2 -> 1, carriage Burgtheater (LAST), Tuende skipped."""
    s = t3_position()
    g = s.game
    assert s.current_player == TUENDE and hand(s, TUENDE) == [5] and coins(s)[TUENDE] == 2
    assert st(s)["carriage"][TUENDE] == fidx(g, "rathaus")
    assert places(s) == {"place burgtheater 5", "place geheimbund 5"}
    assert {"nudge 5->4", "nudge 5->6", "reroll 5"} <= texts(s)   # VI-A42
    assert_illegal(s, place_id(fidx(g, "universitaet"), 5))
    assert_illegal(s, place_id(fidx(g, "rathaus"), 5))
    gb = s.clone()
    do(gb, "P0: place geheimbund 5")
    assert coins(gb)[TUENDE] == 3                                  # +1 coin
    do(s, "P0: place burgtheater 5")
    assert coins(s)[TUENDE] == 1                                   # bribe 1
    assert st(s)["carriage"][TUENDE] == fidx(g, "burgtheater")
    assert hand(s, TUENDE) == []
    # Tuende is skipped for the rest of the round.
    while not s.is_chance() and any(t.startswith("place") for t in texts(s)):
        assert s.current_player != TUENDE
        do(s, "gb")
    # Evaluation: Peter picks at Cafe Landtmann, which is free on TB (the last person field).
    assert s.current_player == PETER and texts(s) == {"person P01", "person P02", "person P03"}
    before = coins(s)[PETER]
    do(s, "P1: person P02")
    assert coins(s)[PETER] == before
    assert st(s)["owned"][PETER][1] == 1


def test_t3b_no_coins_only_geheimbund_VI_A9():
    """T3b: the same with 0 coins (spent on two nudges): Burgtheater is illegal (VI-A9: no
    bribe with 0 coins) and no modification is possible; the only legal move is
    PLACE(Geheimbund, {5}), coins 0 -> 1."""
    s = after_t2_others()
    g = s.game
    play(s, "P0: nudge 5->4", "P0: nudge 4->5")
    assert coins(s)[TUENDE] == 0 and hand(s, TUENDE) == [2, 3, 5]
    play(s, "P0: place rathaus 2+3", "P1: place cafe_landtmann 6", "P2: place universitaet 5",
         "P3: place geheimbund 1+1")
    assert s.current_player == TUENDE
    assert [s.move_to_str(m) for m in s.legal_moves()] == ["place geheimbund 5"]
    assert_illegal(s, place_id(fidx(g, "burgtheater"), 5))
    assert_illegal(s, nudge_id(5, False))
    do(s, "P0: place geheimbund 5")
    assert coins(s)[TUENDE] == 1


@pytest.mark.parametrize("carriage, bribe", [("last", 0), ("furthest", 1)])
def test_t3c_carriage_last_vs_furthest_VI_A8(carriage, bribe):
    """T3c: carriage Rathaus, hand {4,5}, 2 coins. Heldenplatz {4} costs a bribe (2 -> 1).
    Then Burgtheater {5}: LAST (carriage Heldenplatz) costs 0; FURTHEST (Rathaus) costs 1."""
    s = examples_1_3(carriage=carriage)
    g = s.game
    play(s, "P0: roll 2,3,4,5", "P0: place rathaus 2+3")
    for p in (1, 2, 3):
        play(s, f"P{p}: roll 6,6,6,6", f"P{p}: gb")
    assert hand(s, TUENDE) == [4, 5] and coins(s)[TUENDE] == 2
    do(s, "P0: place heldenplatz 4")
    assert coins(s)[TUENDE] == 1                                   # 6 < 8: bribe
    assert st(s)["carriage"][TUENDE] == fidx(g, "heldenplatz")   # the last placed field
    assert st(s)["furthest"][TUENDE] == fidx(g, "rathaus")
    for p in (1, 2, 3):
        do(s, f"P{p}: gb")
    do(s, "P0: place burgtheater 5")
    assert coins(s)[TUENDE] == 1 - bribe


def test_bribe_is_flat_one_coin_VI_A9():
    """VI-A9: one coin per backward placement whatever the distance (Gloriette -> Secession)."""
    s = examples_1_3()
    play(s, "P0: roll 2,5,6,6", "P0: place gloriette 5+6")
    for p in (1, 2, 3):
        play(s, f"P{p}: roll 6,6,6,6", f"P{p}: gb")
    c = coins(s)[TUENDE]
    do(s, "P0: place secession 2")
    assert coins(s)[TUENDE] == c - 1


def test_street_order_is_positional_not_by_value_VI_A43():
    """VI-A43: Rathaus {5} then Universitaet {2,3} is free (further down the street, though
    the new dice show less); Rathaus {5} then Burgtheater {5} (same value, behind) costs 1."""
    s = examples_1_3()
    play(s, "P0: roll 2,3,5,5", "P0: place rathaus 5")
    for p in (1, 2, 3):
        play(s, f"P{p}: roll 6,6,6,6", f"P{p}: gb")
    back = s.clone()
    do(s, "P0: place universitaet 2+3")
    assert coins(s)[TUENDE] == 2
    do(back, "P0: place burgtheater 5")
    assert coins(back)[TUENDE] == 1


# ---------------------------------------------------------------- T4 (board TB, 3 players)

def example_4(gi_taken: bool) -> es.State:
    """Tuende 0 (ST5: 4 cross), Peter 1 (ST1: 2 cross), Moni 2 (ST2: 2 cross); GI = (1,2,1).
    Tuende: Stephansdom {4,5}, Gloriette {5,6}, Geheimbund {1}. Peter: GI field {3,4} (or
    Geheimbund). S4 is in the supply. Returns the state when the evaluation stops."""
    g = new_game(3)
    s = start(g, {0: "ST5", 1: "ST1", 2: "ST2"})
    play(s, "P0: roll 1,4,5,5,6", "P0: place stephansdom 4+5",
         "P1: roll 3,4,6,6,6", "P1: place gi_field 3+4" if gi_taken else "P1: place geheimbund 3+4",
         "P2: roll 6,6,6,6,6", "P2: gb",
         "P0: place gloriette 5+6", "P1: gb", "P2: gb", "P0: place geheimbund 1", "P1: gb", "P2: gb")
    return s


def test_t4_greater_influence_mid_evaluation_VI_A5_VI_A7():
    """T4 (Example 4): crosses before evaluation Tuende 4, Moni 2, Peter 4 - GI_cross = 2
    (VI-A5: the starting cards' symbols count; VI-A7: GI's symbols are data, cross 2 here).
    The GI field is evaluated first: Peter takes S4 and has 4 crosses. Stephansdom for Tuende:
    against Moni 4 > 2 -> +2 VP +1 coin; against Peter 4 = 4 -> +1 VP. Total +3 VP +1 coin; Moni and Peter
    unchanged; Tuende's cross is marked evaluated."""
    s = example_4(gi_taken=True)
    assert owners(s)[S4] == PETER
    assert st(s)["sym"][:3] == [[4, 4, 0], [3, 2, 1], [2, 2, 4]]   # GI not included in sym
    assert s.current_player == TUENDE and texts(s) == {"gloriette citizen", "gloriette crown"}
    assert vps(s) == [3, 0, 0]
    assert coins(s) == [2 + 1 + 1, 2 + 3, 2 + 5]
    assert st(s)["sym_used"][TUENDE] == CROSS
    assert st(s)["sym_used"][PETER] == 0 and st(s)["sym_used"][MONI] == 0


def test_t4b_greater_influence_field_empty():
    """T4b: the GI field is empty (Peter stays at 2 crosses): Tuende gets +4 VP, +2 coins."""
    s = example_4(gi_taken=False)
    assert owners(s)[S4] == -1
    assert vps(s) == [4, 0, 0]
    assert coins(s)[TUENDE] == 2 + 1 + 2


def test_t4c_gloriette_excludes_evaluated_symbol_VI_A28():
    """T4c: Tuende also occupies Gloriette: legal symbols are {citizen, crown}, not cross. She
    pays 1 coin, then compares with the same rewards. Citizen: 4 vs Peter 3 + GI 1 = 4 (tie,
    +1 VP), 4 vs Moni 2 (+2 VP +1 coin; VI-A28: Gloriette pays the coin too). Crown: 0 vs 2
    and 4: nothing, the coin is still paid."""
    s = example_4(gi_taken=True)
    assert texts(s) == {"gloriette citizen", "gloriette crown"}
    crown = s.clone()
    do(s, "P0: gloriette citizen")
    assert vps(s) == [3 + 3, 0, 0]
    assert coins(s) == [4 - 1 + 1, 5, 7]
    assert is_reveal(s)                                            # round over, next display
    do(crown, "P0: gloriette crown")
    assert vps(crown) == [3, 0, 0]
    assert coins(crown) == [4 - 1, 5, 7]


def t4d_position(start_card: str) -> es.State:
    """Tuende (seat 0) occupies Gloriette but not Stephansdom and gains no coin in the round;
    Peter occupies Tiergarten, so the evaluation stops there, after Gloriette."""
    g = new_game(3)
    s = start(g, {0: start_card, 1: "ST1", 2: "ST2"})
    play(s, "P0: roll 2,4,5,5,6", "P0: place secession 2",
         "P1: roll 6,6,6,6,6", "P1: place tiergarten 6+6",
         "P2: roll 6,6,6,6,6", "P2: gb",
         "P0: place heldenplatz 4", "P1: gb", "P2: gb",
         "P0: place burgtheater 5", "P1: gb", "P2: gb")
    return s


def test_t4d_gloriette_with_zero_coins_does_nothing_VI_A27():
    """T4d: a player on Gloriette (not on Stephansdom) with 0 coins at its evaluation: nothing
    happens; nothing is paid; no symbol is compared or marked (VI-A27)."""
    control = t4d_position("ST3")                                   # same, with 2 coins
    do(control, "P0: place gloriette 5+6")
    assert control.current_player == TUENDE and texts(control) == {
        "gloriette citizen", "gloriette cross", "gloriette crown"}
    s = t4d_position("ST6")                                         # 0 coins, no symbols
    do(s, "P0: place gloriette 5+6")
    assert coins(s)[TUENDE] == 0
    # No Gloriette decision: the evaluation went on to Tiergarten (Peter).
    assert s.current_player == PETER and all(t.startswith("tiergarten") for t in texts(s))
    assert vps(s)[TUENDE] == 0 and coins(s)[TUENDE] == 0
    assert st(s)["sym_used"][TUENDE] == 0


def test_gloriette_no_eligible_symbol_does_nothing_VI_A27():
    """VI-A27, second half: no eligible symbol -> nothing happens and nothing is paid.
    Unreachable by play on TB (nobody can occupy all three comparison fields and Gloriette),
    so a JSON edit pre-marks citizen and crown as evaluated this round; Stephansdom marks
    cross."""
    g = new_game(3)
    s = start(g, {0: "ST5", 1: "ST1", 2: "ST2"})
    play(s, "P0: roll 1,4,5,5,6", "P0: place prater 1", "P0: prater skip",
         "P1: roll 6,6,6,6,6", "P1: place tiergarten 6+6",
         "P2: roll 6,6,6,6,6", "P2: gb",
         "P0: place stephansdom 4+5", "P1: gb", "P2: gb")
    assert s.current_player == TUENDE and hand(s, TUENDE) == [5, 6] and coins(s)[TUENDE] == 2
    control = s.clone()
    play(control, "P0: place gloriette 5+6", "P1: gb", "P2: gb")
    assert control.current_player == TUENDE and texts(control) == {"gloriette citizen", "gloriette crown"}
    s = edited(g, s, sym_used=lambda d: [CITIZEN | CROWN] + d["sym_used"][1:])
    play(s, "P0: place gloriette 5+6", "P1: gb", "P2: gb")
    # No Gloriette decision: the evaluation stops at Tiergarten (Peter).
    assert s.current_player == PETER and all(t.startswith("tiergarten") for t in texts(s))
    assert st(s)["sym_used"][TUENDE] == 7
    # Stephansdom: 4 crosses vs Peter 2 and Moni 2: +4 VP +2 coins; Gloriette: nothing paid.
    assert vps(s)[TUENDE] == 4
    assert coins(s)[TUENDE] == 2 + 2


# ---------------------------------------------------------------- T5 (board TB)

def test_t5a_two_dice_make_nine_on_stephansdom():
    """T5a: 4 + 5 occupies the field of value 9 (Stephansdom); a 4 or a 5 alone does not."""
    s = examples_1_3()
    do(s, "P0: roll 2,4,5,6")
    g = s.game
    steph = fidx(g, "stephansdom")
    assert "place stephansdom 4+5" in places(s)
    assert_illegal(s, place_id(steph, 4))
    assert_illegal(s, place_id(steph, 5))
    assert_illegal(s, place_id(steph, 4, 6))
    do(s, "P0: place stephansdom 4+5")
    assert st(s)["occupant"][steph] == TUENDE


def test_t5b_t5d_naschmarkt_oper_hofreitschule():
    """T5b: Naschmarkt occupant +2 coins at evaluation (not at placement). T5d: Oper +1 VP,
    Hofreitschule +2 VP."""
    s = examples_1_3()
    play(s, "P0: roll 1,2,3,6", "P0: place oper 2")
    for p in (1, 2, 3):
        play(s, f"P{p}: roll 6,6,6,6", f"P{p}: gb")
    do(s, "P0: place naschmarkt 3")
    assert coins(s)[TUENDE] == 2 and vps(s)[TUENDE] == 0          # nothing at placement
    for p in (1, 2, 3):
        do(s, f"P{p}: gb")
    assert coins(s)[TUENDE] == 2 and vps(s)[TUENDE] == 0
    do(s, "P0: place hofreitschule 1+6")                           # the round's last die
    assert is_reveal(s)                                            # evaluated, next round
    assert coins(s)[TUENDE] == 2 + 2
    assert vps(s)[TUENDE] == 1 + 2


@pytest.mark.parametrize("card, roll, moves, before, after, vp", [
    ("ST4", "5,6,6,6", ["place rathaus 5", "place geheimbund 6+6", "place geheimbund 6"], 5, 2, 3),
    ("ST6", "5,5,6,6", ["place rathaus 5", "place universitaet 5", "place geheimbund 6+6"], 2, 2, 0),
])
def test_t5c_rathaus_pays_three_or_action_lost_VI_A23(card, roll, moves, before, after, vp):
    """T5c: Rathaus occupant with 5 coins pays 3, leaving 2 (+ the fixture reward 3 VP); no
    decision is offered, so it cannot be declined. With 2 coins: pays 0 and gets nothing
    (VI-A23: the action is lost, the VP reward too)."""
    g = new_game(4)
    s = start(g, {0: card, 1: "ST2", 2: "ST3", 3: "ST1"})
    play(s, f"P0: roll {roll}", f"P0: {moves[0]}",
         "P1: roll 6,6,6,6", "P1: gb", "P2: roll 6,6,6,6", "P2: gb", "P3: roll 2,6,6,6", "P3: gb",
         f"P0: {moves[1]}", "P1: gb", "P2: gb", "P3: place geheimbund 6",
         f"P0: {moves[2]}")
    assert hand(s, TUENDE) == [] and coins(s)[TUENDE] == before and vps(s)[TUENDE] == 0
    do(s, "P3: place secession 2")                                 # the round's last die
    assert is_reveal(s)                                            # no decision at Rathaus
    assert coins(s)[TUENDE] == after and vps(s)[TUENDE] == vp


# ---------------------------------------------------------------- T6 (board TB-X, 4 players)

def t6_round2() -> es.State:
    """P = seat 1 takes S5 in round 1 (S5 field {6}); round 2, P rolls {3,4,4,6} + white 3."""
    g = new_game(4, "tbx")
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    play(s, "P0: roll 6,6,6,6", "P0: gb", "P1: roll 6,6,6,6", "P1: place s5_field 6")
    fill(s)
    assert owners(s)[S5] == 1
    for t in ("P04", "P05", "P06"):
        do(s, f"reveal {t}")
    assert st(s)["white_holder"] == 1 and st(s)["round"] == 2
    do(s, "P0: roll 2,2,6,6")
    do(s, "P0: place heuriger 2+2")
    assert is_roll(s) and roller(s) == 1
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 126 * 6
    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
    p = do(s, "P1: roll 3,4,4,6 W3")
    assert p == pytest.approx(12 / 1296 / 6, abs=1e-15)
    return s


def test_t6_white_die_placement_VI_A39():
    """T6: the white die is never alone on a street field; alone it goes to Geheimbund (+1
    coin); white 3 + 4 on Hofreitschule is legal. VI-A39: it may be half of a pair."""
    s = t6_round2()
    g = s.game
    moves = s.legal_moves()
    alone = [m for m in moves if m & 0xF == PLACE and (m >> 15) & 1 and not (m >> 9) & 7]
    assert [s.move_to_str(m) for m in alone] == ["place geheimbund W3"]
    for f in g.data.street:
        assert_illegal(s, place_id(f.index, 0, 0, True))
    assert "place hofreitschule 4+W3" in places(s)
    assert "place heuriger 3+W3" not in places(s)                  # Heuriger is taken
    assert "place tiergarten 3+W3" in places(s)                    # VI-A39: a pair with white
    gb = s.clone()
    c = coins(gb)[1]
    do(gb, "P1: place geheimbund W3")
    assert coins(gb)[1] == c + 1 and st(gb)["white_placed"] == 2


def test_t6_round_cannot_end_with_white_die_unplaced_VI_A46():
    """T6: the round cannot end while the white die is unplaced. VI-A46: a lone white die can
    still be nudged and rerolled (with a coin), but then only goes to Geheimbund."""
    s = t6_round2()
    play(s, "P1: place geheimbund 3+4", "P2: roll 6,6,6,6", "P2: gb", "P3: roll 6,6,6,6", "P3: gb",
         "P0: place geheimbund 6+6", "P1: place geheimbund 4+6", "P2: gb", "P3: gb")
    # Every coloured die is placed; only P1's white die is left.
    assert all(hand(s, p) == [] for p in range(4))
    assert not s.is_chance() and s.current_player == 1
    assert places(s) == {"place geheimbund W3"}
    assert {"nudge W3->4", "nudge W3->2", "reroll W3"} <= texts(s)
    do(s, "P1: nudge W3->4")
    assert places(s) == {"place geheimbund W4"}
    do(s, "P1: reroll W4")
    assert sorted(texts(s)) == [f"roll W{w}" for w in range(1, 7)]
    assert all(p == pytest.approx(1 / 6) for _, p in s.chance_outcomes())
    do(s, "roll W5")
    assert s.current_player == 1 and places(s) == {"place geheimbund W5"}
    do(s, "P1: place geheimbund W5")
    assert is_reveal(s)                                            # now the round is over


def test_t6_white_die_counts_for_its_placer_then_passes():
    """T6 ownership: P's white+4 on Hofreitschule is evaluated for P although Q took S5 at the
    earlier S5 field (10c) in the same evaluation; next round Q rolls the white die."""
    s = t6_round2()
    P, Q = 1, 2
    play(s, "P1: place hofreitschule 4+W3", "P2: roll 6,6,6,6", "P2: place s5_field 6")
    fill(s)
    assert is_reveal(s)
    assert owners(s)[S5] == Q
    assert vps(s)[P] == 2                                          # Hofreitschule +2 VP for P
    assert vps(s)[Q] == 0
    for t in ("P07", "P08", "P09"):
        do(s, f"reveal {t}")
    assert st(s)["white_holder"] == Q
    # Round 3: seat 0 (S1) rolls 4 dice, then P rolls 4 (no white), Q rolls 4 + white.
    assert roller(s) == 0 and len(s.chance_outcomes()) == 126
    play(s, "P0: roll 6,6,6,6", "P0: gb")
    assert roller(s) == P and len(s.chance_outcomes()) == 126
    play(s, "P1: roll 6,6,6,6", "P1: gb")
    assert roller(s) == Q and len(s.chance_outcomes()) == 756


def test_prater_turns_the_white_die_VI_A19():
    """VI-A19: Prater may turn the white die too (it is one of the holder's unplaced dice)."""
    g = new_game(4, "tbx")
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    play(s, "P0: roll 6,6,6,6", "P0: gb", "P1: roll 6,6,6,6", "P1: place s5_field 6")
    fill(s)
    for t in ("P04", "P05", "P06"):
        do(s, f"reveal {t}")
    play(s, "P0: roll 6,6,6,6", "P0: gb", "P1: roll 1,4,4,6 W3", "P1: place prater 1")
    assert "prater W3->5" in texts(s) and "prater skip" in texts(s)
    do(s, "P1: prater W3->5")
    assert st(s)["white_face"] == 5 and hand(s, 1) == [4, 4, 6]


# ---------------------------------------------------------------- T7 (Double move)

def t7_game() -> es.State:
    """TB has no S2 field, so S2 is given to seat 0 by a JSON edit at the first roll node."""
    g = new_game(4)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    return edited(g, s, special_owner=lambda d: [0, 0] + d["special_owner"][2:])


def test_t7_double_move_VI_A38():
    """T7: P holds S2 with 3 dice left after a normal turn: DOUBLE(yes) gives another full turn
    at once without a roll (VI-A38: full modification rights); the card is then used and not
    offered again this round; after evaluation it is reset. With 0 dice left, no offer."""
    s = t7_game()
    play(s, "P0: roll 2,3,5,6", "P0: place secession 2")
    assert s.current_player == 0 and texts(s) == {"double yes", "double no"}
    do(s, "P0: double yes")
    assert not s.is_chance() and s.current_player == 0               # no roll
    assert hand(s, 0) == [3, 5, 6] and st(s)["double_used"] == 1
    assert {"nudge 3->4", "reroll 3,5,6"} <= texts(s)             # full modification rights
    do(s, "P0: place naschmarkt 3")
    assert is_roll(s) and roller(s) == 1                           # no second offer
    for p in (1, 2, 3):
        play(s, f"P{p}: roll 6,6,6,6", f"P{p}: gb")
    do(s, "P0: place burgtheater 5")
    assert not (texts(s) & {"double yes", "double no"})            # used this round
    assert s.current_player == 1
    fill(s)
    for t in ("P04", "P05", "P06"):
        do(s, f"reveal {t}")
    assert st(s)["double_used"] == 0 and owners(s)[S2] == 0        # reset after evaluation
    # Round 2: offered again; declined each time; no offer after the last dice.
    play(s, "P0: roll 2,3,5,6", "P0: place secession 2")
    assert texts(s) == {"double yes", "double no"}
    do(s, "P0: double no")
    for p in (1, 2, 3):
        play(s, f"P{p}: roll 6,6,6,6", f"P{p}: gb")
    do(s, "P0: place burgtheater 5")
    assert texts(s) == {"double yes", "double no"}                 # still unused: offered
    do(s, "P0: double no")
    for p in (1, 2, 3):
        do(s, f"P{p}: gb")
    do(s, "P0: place stephansdom 3+6")                               # last dice of P0
    assert not (texts(s) & {"double yes", "double no"})
    assert hand(s, 0) == []


def test_double_move_in_the_first_turn_needs_dice_left_VI_A38():
    """VI-A38: no offer when the normal turn placed the player's last dice."""
    s = t7_game()
    play(s, "P0: roll 6,6,6,6", "P0: gb")
    assert texts(s) == {"double yes", "double no"}
    do(s, "P0: double yes")
    do(s, "P0: gb")
    assert hand(s, 0) == [] and is_roll(s) and roller(s) == 1


# ---------------------------------------------------------------- T8 (Krieau, gendarme)

def test_t8_krieau_and_gendarme_VI_A17_VI_A18():
    """T8: PLACE(Krieau, {1}) -> GENDARME on any empty street field (VI-A17: never Geheimbund),
    then +1 VP or +1 coin. The gendarme field is illegal for everyone, the Krieau player
    included (VI-A18), and skipped in evaluation; Krieau is not evaluated again; its die stays
    all round; the gendarme is off the board next round."""
    g = new_game(4)
    F = {f.id: f.index for f in g.data.street}
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    play(s, "P0: roll 1,4,5,6", "P0: place krieau 1")
    assert s.current_player == 0
    gend = [m for m in s.legal_moves()]
    assert all(m & 0xF == GENDARME for m in gend)
    assert sorted((m >> 4) & 0x1F for m in gend) == [i for i in range(len(F)) if i != F["krieau"]]
    assert GENDARME | GEHEIMBUND << 4 not in gend
    do(s, "P0: gendarme stephansdom")
    assert st(s)["gendarme"] == F["stephansdom"]
    assert texts(s) == {"krieau vp", "krieau coins"}
    do(s, "P0: krieau coins")
    assert coins(s)[0] == 3 and vps(s)[0] == 0
    assert is_roll(s) and roller(s) == 1
    do(s, "P1: roll 1,4,5,6")
    assert_illegal(s, place_id(F["stephansdom"], 4, 5))
    assert_illegal(s, place_id(F["krieau"], 1))                    # Krieau's die stays
    assert "place geheimbund 4+5" in places(s) and "place prater 1" in places(s)
    do(s, "P1: gb")
    for p in (2, 3):
        play(s, f"P{p}: roll 4,5,6,6", f"P{p}: gb")
    assert hand(s, 0) == [4, 5, 6] and s.current_player == 0
    assert_illegal(s, place_id(F["stephansdom"], 4, 5))            # VI-A18: Krieau player too
    fill(s)
    assert is_reveal(s)
    assert coins(s)[0] == 3 + 3 and vps(s)[0] == 0                 # Krieau not evaluated again
    for t in ("P04", "P05", "P06"):
        do(s, f"reveal {t}")
    assert st(s)["gendarme"] == -1
    do(s, "P0: roll 1,4,5,6")
    assert "place stephansdom 4+5" in places(s) and "place krieau 1" in places(s)


def test_krieau_vp_reaching_25_ends_only_after_evaluation_VI_A44():
    """VI-A44: 25 VP gained at Krieau during placement does not end the game at once; it ends
    after that round's evaluation. (VP set to 24 by a JSON edit.)"""
    g = new_game(4)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    do(s, "P0: roll 1,6,6,6")
    s = edited(g, s, vp=[24, 0, 0, 0, 0])
    play(s, "P0: place krieau 1", "P0: gendarme oper", "P0: krieau vp")
    assert vps(s)[0] == 25 and not s.is_terminal()
    assert is_roll(s) and roller(s) == 1
    fill(s)
    assert s.is_terminal() and s.current_player == es.TERMINAL


# ---------------------------------------------------------------- T9 (Prater)

def test_t9_prater_turns_one_unplaced_die_VI_A19():
    """T9: hand {1,5,6}, no carriage: PLACE(Prater, {1}); then PRATER(5 -> any), PRATER(6 ->
    any) or PRATER_SKIP (VI-A19: optional). Carriage Prater; Prater is not evaluated again
    (no Prater decision at evaluation); its die stays until the end of the round."""
    g = new_game(4)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    play(s, "P0: roll 1,5,6,6", "P0: place geheimbund 6",
         "P1: roll 1,6,6,6", "P1: place geheimbund 6+6",
         "P2: roll 6,6,6,6", "P2: gb", "P3: roll 6,6,6,6", "P3: gb")
    assert hand(s, 0) == [1, 5, 6] and st(s)["carriage"][0] == -1 and coins(s)[0] == 3
    do(s, "P0: place prater 1")
    assert s.current_player == 0
    assert texts(s) == {"prater skip"} | {f"prater 5->{t}" for t in (1, 2, 3, 4, 6)} | \
        {f"prater 6->{t}" for t in (1, 2, 3, 4, 5)}
    skip = s.clone()
    do(skip, "P0: prater skip")
    assert hand(skip, 0) == [5, 6]
    do(s, "P0: prater 5->3")
    assert hand(s, 0) == [3, 6] and coins(s)[0] == 3
    assert st(s)["carriage"][0] == fidx(g, "prater")
    # Seat 1 holds {1,6}: Prater is still occupied, Krieau is free.
    assert s.current_player == 1 and hand(s, 1) == [1, 6]
    assert_illegal(s, place_id(fidx(g, "prater"), 1))
    assert "place krieau 1" in places(s)
    fill(s)
    assert is_reveal(s)
    assert coins(s)[0] == 3 + 2 and vps(s)[0] == 0


def test_prater_with_no_die_left_does_nothing():
    """Spec 4.6.2: if nothing is left to turn, nothing happens (no Prater decision)."""
    g = new_game(4)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    play(s, "P0: roll 1,6,6,6", "P0: place geheimbund 6+6")
    for p in (1, 2, 3):
        play(s, f"P{p}: roll 6,6,6,6", f"P{p}: gb")
    play(s, "P0: place geheimbund 6", "P1: gb", "P2: gb", "P3: gb")
    assert hand(s, 0) == [1] and s.current_player == 0
    do(s, "P0: place prater 1")
    assert is_reveal(s)                                            # round over, no decision


# ---------------------------------------------------------------- T10 (Geheimbund)

def test_t10_geheimbund_two_dice_no_bribe_carriage_kept_VI_A10_VI_A11():
    """T10: carriage Stephansdom, hand {1,6}: PLACE(Geheimbund, {1,6}) is legal, no bribe,
    +2 coins at once (VI-A11: two dice, 1 coin each), the carriage stays (VI-A10); the dice
    stay there; other players may still put dice there."""
    g = new_game(4)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    play(s, "P0: roll 1,4,5,6", "P0: place stephansdom 4+5")
    for p in (1, 2, 3):
        play(s, f"P{p}: roll 6,6,6,6", f"P{p}: gb")
    steph = fidx(g, "stephansdom")
    assert hand(s, 0) == [1, 6] and coins(s)[0] == 2
    assert place_id(GEHEIMBUND, 1, 6) in s.legal_moves()
    do(s, "P0: place geheimbund 1+6")
    assert coins(s)[0] == 4
    assert st(s)["carriage"][0] == steph and st(s)["furthest"][0] == steph
    assert st(s)["geheimbund"][0] == 2
    c1 = coins(s)[1]
    do(s, "P1: place geheimbund 6+6")
    assert coins(s)[1] == c1 + 2 and st(s)["geheimbund"][:2] == [2, 4]


# ---------------------------------------------------------------- T11 (pair fields)

def test_t11_tiergarten_options_and_heuriger_counts_s4_VI_A29_VI_A30():
    """T11 Tiergarten: {3,3} legal, {3,4} and {6} illegal. Evaluation with the others holding
    5, 1, 0 coins: exactly the 5 distinct maximal outcomes (VI-A29); "3 from the first" moves
    3 coins (5 -> 2). VI-A30: Heuriger counts S4 won earlier in the same evaluation."""
    g = new_game(4)
    tg = fidx(g, "tiergarten")
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST6", 3: "ST3"})
    do(s, "P0: roll 3,3,4,6")
    assert "place tiergarten 3+3" in places(s)
    assert_illegal(s, place_id(tg, 3, 4))
    assert_illegal(s, place_id(tg, 6))
    assert_illegal(s, place_id(tg, 4, 6))
    play(s, "P0: place tiergarten 3+3",
         "P1: roll 2,6,6,6", "P1: place secession 2",
         "P2: roll 4,5,5,6", "P2: place heldenplatz 4",
         "P3: roll 1,4,4,6", "P3: nudge 4->5", "P3: nudge 5->4", "P3: place gi_field 1+6",
         "P0: place geheimbund 4+6", "P1: place geheimbund 6+6", "P2: place burgtheater 5",
         "P3: place heuriger 4+4",
         "P1: place geheimbund 6", "P2: place universitaet 5", "P2: place geheimbund 6")
    assert s.current_player == 0 and coins(s) == [4, 5, 1, 0]
    assert owners(s)[S4] == 3
    assert texts(s) == {"tiergarten nothing", "tiergarten P1:3", "tiergarten P2:1",
                        "tiergarten P1:1 P2:1", "tiergarten P1:1"}
    assert len(s.legal_moves()) == 5
    nothing = s.clone()
    do(s, "P0: tiergarten P1:3")
    assert coins(s) == [7, 2, 1, 0]
    assert is_reveal(s)
    assert vps(s)[3] == 1                                           # Heuriger: S4 only
    do(nothing, "P0: tiergarten nothing")
    assert coins(nothing) == [4, 5, 1, 0]


def test_t11_heuriger_counts_cards_held_at_its_evaluation_VI_A30():
    """T11 Heuriger (TB-X): the occupant held S3 before the round, took S1 at 10d and lost S3
    at 10e earlier in this evaluation: at Heuriger only S1 counts, +1 VP. S1 then makes them
    the next round's start player."""
    g = new_game(4, "tbx")
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    play(s, "P0: roll 6,6,6,6", "P0: gb", "P1: roll 6,6,6,6", "P1: place s3_field 6")
    fill(s)
    assert owners(s)[S3] == 1 and vps(s) == [0, 0, 0, 0]
    for t in ("P04", "P05", "P06"):
        do(s, f"reveal {t}")
    play(s, "P0: roll 6,6,6,6", "P0: gb",
         "P1: roll 2,2,6,6", "P1: place s1_field 6",
         "P2: roll 6,6,6,6", "P2: place s3_field 6",
         "P3: roll 6,6,6,6", "P3: gb", "P0: gb",
         "P1: place heuriger 2+2")
    fill(s)
    assert is_reveal(s)
    assert owners(s)[S1] == 1 and owners(s)[S3] == 2
    assert vps(s) == [0, 1, 0, 0]
    for t in ("P07", "P08", "P09"):
        do(s, f"reveal {t}")
    assert is_roll(s) and roller(s) == 1


# ---------------------------------------------------------------- T12 (person cards, display)

def test_t12_person_fields_paid_free_and_cleanup():
    """T12 (TB-X, n = 4, display 3): Cafe Landtmann's occupant with coins pays 1 and picks;
    Cafe A's occupant with 0 coins: nothing; Cafe B (the last) picks free. Cleanup: the
    leftover display card goes to the discard pile and 3 new cards are revealed."""
    g = new_game(4, "tbx")
    s = start(g, {0: "ST1", 1: "ST6", 2: "ST2", 3: "ST3"}, display=("P01", "P05", "P09"))
    play(s, "P0: roll 6,6,6,6", "P0: place cafe_landtmann 6",
         "P1: roll 2,4,5,6", "P1: place secession 2",
         "P2: roll 6,6,6,6", "P2: place cafe_b 6",
         "P3: roll 6,6,6,6", "P3: gb",
         "P0: gb", "P1: place heldenplatz 4", "P2: gb", "P3: gb",
         "P0: gb", "P1: place burgtheater 5", "P2: gb",
         "P1: place cafe_a 6")
    assert coins(s) == [5, 0, 5, 6]
    assert s.current_player == 0 and texts(s) == {"person P01", "person P05", "person P09"}
    do(s, "P0: person P05")
    assert coins(s)[0] == 4 and st(s)["owned"][0][4] == 1
    assert st(s)["sym"][0] == [3, 3, 1]                            # ST1 (3,2,1) + P05 (0,1,0)
    # Cafe A (P1, 0 coins): nothing, no decision; Cafe B (P2): free pick of what is left.
    assert s.current_player == 2 and texts(s) == {"person P01", "person P09"}
    do(s, "P2: person P09")
    assert coins(s) == [4, 0, 5, 6]
    assert sum(st(s)["owned"][1]) == 0 and st(s)["owned"][2][8] == 1
    assert is_reveal(s)
    d = st(s)
    assert d["display"] == 0 and d["discard"][0] == 1 and d["discard_total"] == 1
    for t in ("P02", "P03", "P04"):
        do(s, f"reveal {t}")
    assert is_roll(s) and bin(st(s)["display"]).count("1") == 3


def test_t12_last_person_field_with_empty_display_does_nothing():
    """T12: F_c's occupant gets nothing when the display is empty (n = 3, display 2, both
    cards taken at the paid fields; the second pick is the only option, so automatic)."""
    g = new_game(3, "tbx")
    s = start(g, {0: "ST1", 1: "ST3", 2: "ST2"}, display=("P01", "P05"))
    play(s, "P0: roll 6,6,6,6,6", "P0: place cafe_landtmann 6",
         "P1: roll 6,6,6,6,6", "P1: place cafe_a 6",
         "P2: roll 6,6,6,6,6", "P2: place cafe_b 6")
    fill(s)
    c = coins(s)
    assert s.current_player == 0 and texts(s) == {"person P01", "person P05"}
    do(s, "P0: person P01")
    assert is_reveal(s)                                            # P1 automatic, P2 nothing
    assert st(s)["owned"][1][4] == 1 and coins(s)[1] == c[1] - 1
    assert sum(st(s)["owned"][2]) == 0 and coins(s)[2] == c[2]


def test_last_person_field_free_when_earlier_ones_empty_VI_A21():
    """VI-A21: the last person field (Cafe B) is free even though the paid ones are empty."""
    g = new_game(3, "tbx")
    s = start(g, {0: "ST1", 1: "ST3", 2: "ST2"}, display=("P01", "P05"))
    play(s, "P0: roll 6,6,6,6,6", "P0: place cafe_b 6")
    fill(s)
    c = coins(s)[0]
    assert s.current_player == 0 and texts(s) == {"person P01", "person P05"}
    do(s, "P0: person P05")
    assert coins(s)[0] == c and st(s)["owned"][0][4] == 1


@pytest.mark.parametrize("optional", [False, True])
def test_person_pick_optional_switch_VI_A20(optional):
    """VI-A20: by default the pick is mandatory (no decline); with person_optional a decline is
    offered, and declining pays nothing and takes nothing."""
    g = new_game(3, "tbx", person_optional=optional)
    s = start(g, {0: "ST1", 1: "ST3", 2: "ST2"}, display=("P01", "P05"))
    play(s, "P0: roll 6,6,6,6,6", "P0: place cafe_landtmann 6")
    fill(s)
    c = coins(s)[0]
    want = {"person P01", "person P05"} | ({"person decline"} if optional else set())
    assert s.current_player == 0 and texts(s) == want
    if optional:
        do(s, "P0: person decline")
        assert coins(s)[0] == c and sum(st(s)["owned"][0]) == 0
        assert is_reveal(s)


def test_t12_duplicate_reveal_goes_to_the_bottom():
    """T12: display {P01}; the next reveal is another P01: it goes to the known bottom queue and
    another card is revealed; the display holds distinct persons. Reveal probabilities are
    count / unknown total (VI-A6: copies of one person share an id)."""
    g = new_game(4, "tbx")
    s = g.initial_state()
    for c in ("ST1", "ST2", "ST3", "ST4"):
        do(s, f"draft {c}")
    assert do(s, "reveal P01") == pytest.approx(2 / 44)
    assert do(s, "reveal P01") == pytest.approx(1 / 43)
    d = st(s)
    assert is_reveal(s) and d["display"] == 1
    assert d["queue_len"] == 1 and d["queue"][0] == 0 and d["deck_total"] == 42
    assert "reveal P01" not in texts(s)                            # no P01 left in the unknown part
    assert do(s, "reveal P02") == pytest.approx(2 / 42)
    assert do(s, "reveal P03") == pytest.approx(2 / 41)
    assert is_roll(s) and st(s)["display"] == 0b111


def test_deck_exhausted_reshuffles_discard_VI_A34():
    """VI-A34: unknown part and queue empty at a refill -> the discard pile becomes the new
    unknown part (a chance node, count / total). JSON edit: every face-down card is moved to
    the discard pile during round 1; P0 takes P01 at Cafe Landtmann (TB, free)."""
    g = new_game(4)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})

    def empty_deck(d):
        d["discard"] = [a + b for a, b in zip(d["discard"], d["deck"])]
        d["discard_total"] = sum(d["discard"])
        d["deck"] = [0] * len(d["deck"])
        d["deck_total"] = 0
        return d

    doc = st(s)
    s = edited(g, s, **{k: v for k, v in empty_deck(dict(doc)).items()
                        if k in ("discard", "discard_total", "deck", "deck_total")})
    assert st(s)["deck_total"] == 0 and st(s)["discard_total"] == 41
    play(s, "P0: roll 6,6,6,6", "P0: place cafe_landtmann 6")
    fill(s)
    do(s, "P0: person P01")
    assert is_reveal(s)
    probs = {s.move_to_str(m): p for m, p in s.chance_outcomes()}
    assert probs == pytest.approx({f"reveal P{t:02d}": (1 if t == 1 else 2) / 43 for t in range(1, 23)})


def test_duplicates_only_leave_the_display_short_VI_A35():
    """VI-A35: when every remaining deck card duplicates a displayed person, the refill stops
    and the display stays short (the discard pile is not used while the deck is not empty).
    JSON edit: the face-down part is {P04, P04}; everything else is in the discard pile."""
    g = new_game(4)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    d = st(s)
    deck = [0] * len(d["deck"])
    deck[3] = 2
    discard = [a + b - c for a, b, c in zip(d["discard"], d["deck"], deck)]
    s = edited(g, s, deck=deck, deck_total=2, discard=discard, discard_total=sum(discard))
    play(s, "P0: roll 6,6,6,6", "P0: gb")
    fill(s)
    assert is_reveal(s) and texts(s) == {"reveal P04"}
    do(s, "reveal P04")
    assert is_roll(s)                                               # round 2 starts
    d = st(s)
    assert d["display"] == 1 << 3 and d["round"] == 2
    assert d["discard_total"] == 44 - 2


# ---------------------------------------------------------------- T13 (end of game)

def t13_before_last_die(vp: list[int], specials: list[int]) -> es.State:
    """n = 4, A B C D = seats 0-3 with the symbols of T13 (from their starting cards). All
    dice but D's last {1,1} are on Geheimbund; VP, coins and special cards are then set by a
    JSON edit to T13's table (symbols and cards are as drafted)."""
    g = new_game(4)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    play(s, "P0: roll 6,6,6,6", "P0: gb", "P1: roll 6,6,6,6", "P1: gb", "P2: roll 6,6,6,6", "P2: gb",
         "P3: roll 1,1,6,6", "P3: place geheimbund 6+6", "P0: gb", "P1: gb", "P2: gb")
    assert s.current_player == 3 and hand(s, 3) == [1, 1]
    assert st(s)["sym"][:4] == [[3, 2, 1], [2, 2, 4], [3, 1, 1], [1, 4, 0]]
    return edited(g, s, vp=vp + [0], coins=[2, 4, 5, 3, 0], special_owner=specials)


@pytest.mark.parametrize("specials, returns", [
    ([0, 2, 2, -1, -1], [0.0, 0.0, 1.0, 0.0]),      # A 1 card, C 2 cards: C wins
    ([0, 2, -1, -1, -1], [0.5, 0.0, 0.5, 0.0]),     # 1 card each, 2 coins left each: shared
])
def test_t13_final_scoring_and_tie_breaks_VI_A31_VI_A32_VI_A33_VI_A45(specials, returns):
    """T13: A has 25 VP after the evaluation, so the game ends. Final majorities (strictly more
    than both neighbours, VI-A31; B's cross tie gives 0): A 26, B 24, C 25, D 21. Coins to VP
    automatically (VI-A32): A 26, B 25, C 26, D 22, coins left 2, 1, 2, 0. A and C tie: more
    special cards wins; then more coins left after conversion (VI-A33: 2 = 2, shared; before
    conversion C's 5 would beat A's 2). VI-A45: no display refill after the final round."""
    s = t13_before_last_die([25, 23, 24, 20], specials)
    display, discard = st(s)["display"], st(s)["discard"]
    do(s, "P3: place secession 1+1")
    assert s.is_terminal() and s.current_player == es.TERMINAL
    assert s.scores() == [26.0, 25.0, 26.0, 22.0]
    assert coins(s) == [2, 1, 2, 0]
    assert s.returns() == returns
    assert st(s)["display"] == display and st(s)["discard"] == discard
    assert s.legal_moves() == [] and s.chance_outcomes() == []
    with pytest.raises(es.IllegalMoveError):
        s.apply(place_id(GEHEIMBUND, 1))


def test_t13_no_trigger_below_25():
    """T13 trigger, negative: with nobody at 25 VP the game goes on (next display)."""
    s = t13_before_last_die([24, 23, 24, 20], [0, -1, -1, -1, -1])
    do(s, "P3: place secession 1+1")
    assert not s.is_terminal() and is_reveal(s)
    assert s.returns() == [0.0] * 4
    assert vps(s) == [24, 23, 24, 20] and coins(s) == [2, 4, 5, 3]


# ---------------------------------------------------------------- T14 (joker)

def test_t14_joker_ones_are_wild_VI_A40():
    """T14: P holds S3 (won in round 1 at 10e), hand {1,1,4,6}: Stephansdom {1->3, 6},
    Tiergarten {1->4, 4}, Belvedere {1->4, 6}, Heldenplatz {1->4} are legal. VI-A40: P also
    holds S5, and the white 1 is wild too (Gloriette 6 + W1->5), but still never alone on the
    street. Without S3 the same coloured hand makes only 1, 4, 6 and 2, 5, 7, 10."""
    g = new_game(4, "tbx")
    F = {f.id: f.index for f in g.data.street}
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    play(s, "P0: roll 6,6,6,6", "P0: gb", "P1: roll 6,6,6,6", "P1: place s5_field 6",
         "P2: roll 6,6,6,6", "P2: gb", "P3: roll 6,6,6,6", "P3: gb", "P0: gb",
         "P1: place s3_field 6")
    fill(s)
    assert owners(s)[S3] == 1 and owners(s)[S5] == 1
    for t in ("P04", "P05", "P06"):
        do(s, f"reveal {t}")
    play(s, "P0: roll 6,6,6,6", "P0: gb", "P1: roll 1,1,4,6 W1")
    legal = places(s)
    for mv in ("place stephansdom 1+6", "place tiergarten 1+4", "place belvedere 1+6",
               "place heldenplatz 1", "place gloriette 6+W1", "place tiergarten 4+W1"):
        assert mv in legal, mv
    assert_illegal(s, place_id(F["heldenplatz"], 0, 0, True))     # white alone: never
    do(s, "P1: place heldenplatz 1")
    # P2 has no joker: the same coloured hand.
    do(s, "P2: roll 1,1,4,6")
    assert_illegal(s, place_id(F["stephansdom"], 1, 6))
    assert_illegal(s, place_id(F["tiergarten"], 1, 4))
    assert {t for t in places(s) if t.startswith("place tiergarten")} == {"place tiergarten 1+1"}
    totals = {1, 4, 6, 2, 5, 7, 10}
    for m in s.legal_moves():
        f = (m >> 4) & 0x1F
        if m & 0xF != PLACE or f == GEHEIMBUND:
            continue
        fd = g.data.street[f]
        c1, c2 = (m >> 9) & 7, (m >> 12) & 7
        if fd.pair:
            assert c1 == c2 == 1
        else:
            assert c1 + c2 in fd.accept and c1 + c2 in totals, s.move_to_str(m)


# ---------------------------------------------------------------- T15 (paid modification)

def test_t15_paid_modification_VI_A14_VI_A15():
    """T15: 2 coins, hand {6,6,2}: NUDGE(6, -1) -> {5,6,2}, 1 coin; REROLL({2}) is a chance
    node with 6 outcomes, 0 coins; then no modification is offered. VI-A14: no 6 -> 7, no
    1 -> 0. VI-A15: rerolls are offered for every non-empty sub-multiset. The modifications
    are offered at a later turn of the round (VI-A12 default)."""
    g = new_game(3)
    s = start(g, {0: "ST6", 1: "ST1", 2: "ST2"})
    play(s, "P0: roll 2,6,6,6,6", "P0: place geheimbund 6+6",
         "P1: roll 1,6,6,6,6")
    assert "nudge 1->2" in texts(s) and "nudge 1->0" not in texts(s)
    assert_illegal(s, nudge_id(1, False))                          # VI-A14
    play(s, "P1: gb", "P2: roll 6,6,6,6,6", "P2: gb")
    assert s.current_player == 0 and hand(s, 0) == [2, 6, 6] and coins(s)[0] == 2
    assert {t for t in texts(s) if t.startswith("reroll")} == \
        {"reroll 2", "reroll 6", "reroll 6,6", "reroll 2,6", "reroll 2,6,6"}
    assert {t for t in texts(s) if t.startswith("nudge")} == {"nudge 2->1", "nudge 2->3", "nudge 6->5"}
    assert_illegal(s, nudge_id(6, True))                           # VI-A14: no wrap
    do(s, "P0: nudge 6->5")
    assert hand(s, 0) == [2, 5, 6] and coins(s)[0] == 1
    do(s, "P0: reroll 2")
    assert coins(s)[0] == 0 and s.is_chance()
    assert sorted((s.move_to_str(m), p) for m, p in s.chance_outcomes()) == \
        [(f"roll {f}", pytest.approx(1 / 6)) for f in range(1, 7)]
    do(s, "roll 1")
    assert s.current_player == 0 and hand(s, 0) == [1, 5, 6]
    assert all(t.startswith("place") for t in texts(s))            # 0 coins: no modification
    assert_illegal(s, nudge_id(5, True))
    assert_illegal(s, REROLL | 1 << 4)


@pytest.mark.parametrize("every_turn", [True, False])
def test_modification_on_later_turns_switch_VI_A12(every_turn):
    """VI-A12: paid modifications at every own turn (default); with modify_every_turn=False
    only in the roll turn."""
    g = new_game(3, modify_every_turn=every_turn)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3"})
    do(s, "P0: roll 2,6,6,6,6")
    assert {"nudge 2->3", "reroll 2"} <= texts(s)
    play(s, "P0: place geheimbund 6+6", "P1: roll 6,6,6,6,6", "P1: gb", "P2: roll 6,6,6,6,6", "P2: gb")
    assert s.current_player == 0 and coins(s)[0] == 4
    mods = {t for t in texts(s) if t.startswith(("nudge", "reroll"))}
    assert bool(mods) == every_turn


# ---------------------------------------------------------------- T16 (turn order)

def test_t16_turn_order_skipping_and_evaluation_start_VI_A16():
    """T16: n = 3; A has placed all dice, B has 1, C has 2, C to move: C -> (A skipped) -> B
    -> C; evaluation starts only when B and C are both empty (VI-A16: a player with dice
    always has a move; one without is skipped)."""
    g = new_game(3)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3"})
    play(s, "P0: roll 6,6,6,6,6", "P0: gb", "P1: roll 6,6,6,6,6", "P1: gb",
         "P2: roll 6,6,6,6,6", "P2: place geheimbund 6",
         "P0: gb", "P1: place geheimbund 6", "P2: gb",
         "P0: place geheimbund 6")
    assert hand(s, 0) == [] and not s.is_chance() and s.current_player == 1   # no evaluation yet
    do(s, "P1: place geheimbund 6")
    assert s.current_player == 2 and [len(hand(s, p)) for p in range(3)] == [0, 1, 2]
    do(s, "P2: place geheimbund 6")
    assert s.current_player == 1                                    # A skipped
    do(s, "P1: place geheimbund 6")
    assert s.current_player == 2 and not s.is_chance()               # B done, C still has a die
    do(s, "P2: place geheimbund 6")
    assert is_reveal(s)                                              # now evaluation ran


# ---------------------------------------------------------------- T17 (two-number field)

def test_t17_two_number_field_VI_A2():
    """T17 (TB-X): the S5 field 10c accepts 6 or 7; carriage at Cafe Landtmann. {6}, {3,4},
    {1,5} are legal; {5} and {4,4} are not. At evaluation the occupant takes S5 from the
    supply."""
    g = new_game(3, "tbx")
    s5 = fidx(g, "s5_field")
    s0 = start(g, {0: "ST1", 1: "ST2", 2: "ST3"})
    positions = {}
    for roll in ("3,4,4,6,6", "1,5,5,6,6"):
        s = s0.clone()
        play(s, f"P0: roll {roll}", "P0: place cafe_landtmann 6",
             "P1: roll 6,6,6,6,6", "P1: gb", "P2: roll 6,6,6,6,6", "P2: gb")
        assert st(s)["carriage"][0] == fidx(g, "cafe_landtmann")
        positions[roll] = s
    a, b = positions["3,4,4,6,6"], positions["1,5,5,6,6"]
    assert {"place s5_field 6", "place s5_field 3+4"} <= places(a)
    assert_illegal(a, place_id(s5, 4, 4))                          # 8
    assert "place s5_field 1+5" in places(b) and "place s5_field 6" in places(b)
    assert_illegal(b, place_id(s5, 5))                             # 5
    assert_illegal(b, place_id(s5, 5, 5))                          # 10
    assert owners(a)[S5] == -1
    do(a, "P0: place s5_field 6")
    fill(a)
    assert a.current_player == 0 and all(t.startswith("person") for t in texts(a))
    do(a, "P0: person P01")
    assert is_reveal(a) and owners(a)[S5] == 0


# ---------------------------------------------------------------- further section 9 items

def test_taking_a_special_card_already_held_changes_nothing_VI_A37():
    """VI-A37: the S1 holder occupies the S1 field: nothing changes; it starts again."""
    g = new_game(4, "tbx")
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3", 3: "ST4"})
    play(s, "P0: roll 6,6,6,6", "P0: place s1_field 6")
    fill(s)
    assert is_reveal(s)
    assert owners(s) == [0, -1, -1, -1, -1] and vps(s) == [0, 0, 0, 0]
    assert coins(s)[0] == 2 + 3
    for t in ("P04", "P05", "P06"):
        do(s, f"reveal {t}")
    assert roller(s) == 0


def test_round_comparison_rewards_and_zero_tie_VI_A24_VI_A26():
    """VI-A26: 0 = 0 counts as a tie in a round evaluation (Belvedere, crown: 0 vs 0 and 0 ->
    +2 VP, no coin). VI-A24: Pestsaeule pays the same as Stephansdom (4 citizens vs 0 and 1:
    +4 VP +2 coins). VI-A25: Pestsaeule compares citizens, Belvedere crowns (fixture data)."""
    g = new_game(3)
    s = start(g, {0: "ST4", 1: "ST5", 2: "ST6"})           # crowns 0/0/0; citizens 1/4/0
    play(s, "P0: roll 4,6,6,6,6", "P0: place belvedere 4+6",
         "P1: roll 2,6,6,6,6", "P1: place pestsaeule 2+6")
    fill(s)
    assert is_reveal(s)
    assert vps(s) == [2, 4, 0]
    assert coins(s) == [2 + 3, 2 + 3 + 2, 0 + 5]


def test_coin_supply_is_unlimited_VI_A36():
    """VI-A36: no coin limit (the box's 25 coins are not a cap): 40 coins + 2 from Geheimbund."""
    g = new_game(3)
    s = start(g, {0: "ST1", 1: "ST2", 2: "ST3"})
    do(s, "P0: roll 6,6,6,6,6")
    s = edited(g, s, coins=[40, 2, 2, 0, 0])
    do(s, "P0: place geheimbund 6+6")
    assert coins(s) == [42, 2, 2]
