"""The worked examples of the Oh My Goods! rules spec, against the NATIVE engine.

Every item of ``shared/rules/oh_my_goods.md`` section 11 (T1..T26, negatives and variants
included) is a test here, plus the observable resolutions of section 10 (OMG-A1..A39) that the
examples leave out. A test that pins an ambiguity's resolution names its id (``OMG_A32``...)
in its name or docstring.

Card data: the bundled file (``python/eurosearch/data/oh_my_goods.toml``). The examples speak of
abstract buildings ("input 1 wood + 2 stone"); each test uses a bundled card with the input
that makes the same point and says which. One test (OMG-A19) needs assistant sides that ask
for the Charburner's and the Market Offices' colours; it writes a copy of the bundled file with
other (provisional) assistants into ``tmp_path``.

Positions: a game starts from ``g.initial_state()`` with chosen chance outcomes (which
Charburner each seat gets, which assistants are displayed, their sides). Owning several
buildings with goods takes many rounds of play, so most tests then lay the cards out anew at
the first Sunrise draw of round 1 (``arrange``: hands, built cards, goods, discard pile,
assistants; everything else stays in the draw pile) through ``to_json``/``state_from_json``,
which checks the layout strictly. From there everything is play: market cards are chosen
chance outcomes ("draw m3"), decisions are the engine's text moves. Forced decisions (one
legal move) are taken by the engine itself, so a test never applies them.

Seats: 0 is the start player (spec's P / P1), 1 the next (Q / P2), 2 the third (P3).
"""

from __future__ import annotations

import json
import re
from itertools import product
from math import comb
from pathlib import Path

import pytest

import eurosearch as es
from eurosearch.gamedata import read_file
from eurosearch.games.oh_my_goods_data import DEFAULT_DATA

# ---------------------------------------------------------------- engine constants
# stages (csrc/games/oh_my_goods.h, OMG_ST_*)
P1_COMMIT, P1_DRAW, SUNRISE, P2_COMMIT, P2_REVEAL, SUNSET, PRODUCE, BUILD, FINAL, OVER = range(6, 16)
# card locations (OMG_L_*)
L_DECK, L_DISCARD, L_MARKET1, L_MARKET2 = 0, 1, 2, 3


def L_HAND(p):
    return 4 + p


def L_ASIDE(p):
    return 8 + p


def L_BUILT(p):
    return 12 + p


def L_GOOD(p, k):
    return 16 + 10 * p + k


# move types (docs/oh_my_goods_engine.md, "Move ids")
REDRAW, HALVE, MOVE, WORKER, ASIDE, PAY, PRODUCE_M, SUPPLY, CHAIN, END_PRODUCTION, BUILD_M, HIRE, PASS, \
    END_CHAINS = range(1, 15)
DRAW, CHARBURNER, DISPLAY, SIDE, START, TAKE = range(16, 22)

CHARBURNERS = ("charburner_clay", "charburner_grain", "charburner_stone", "charburner_wool")
RES = {"grain": 1, "wood": 2, "clay": 3, "stone": 4, "wool": 5}


def mtype(m: int) -> int:
    return m & 31


def pay_id(k: int) -> int:
    return PAY | k << 5


# ---------------------------------------------------------------- helpers

def st(s: es.State) -> dict:
    """The state fields (csrc/games/oh_my_goods.h names) of ``s``."""
    return json.loads(s.to_json(format=1))["state"]


def view(s: es.State, p: int) -> dict:
    return json.loads(s.to_json(viewer=p, format=1))["state"]


def texts(s: es.State) -> set[str]:
    if s.is_chance():
        return {s.move_to_str(m) for m, _ in s.chance_outcomes()}
    return {s.move_to_str(m) for m in s.legal_moves()}


def probs(s: es.State) -> dict[str, float]:
    assert s.is_chance(), str(s)
    return {s.move_to_str(m): p for m, p in s.chance_outcomes()}


def do(s: es.State, *steps: str) -> None:
    """Apply text moves; each must be legal at its node (a forced one never is shown)."""
    for t in steps:
        assert t in texts(s), (t, sorted(texts(s)), str(s))
        s.apply(s.str_to_move(t))


def types(s: es.State) -> set[int]:
    return {mtype(m) for m in s.legal_moves()}


def new_game(players: int = 2, data=None, **options) -> es.Game:
    return es.game("oh_my_goods", players=players, data=data, options={"start_player": 0, **options})


def cid(g: es.Game, name: str) -> int:
    return g.data.card_index(name)


def aidx(g: es.Game, name: str) -> int:
    return [a.id for a in g.data.assistants].index(name)


def card(g: es.Game, name: str):
    return g.data.cards[cid(g, name)]


def setup(g: es.Game, charburners=None, display=None, sides=None) -> es.State:
    """Initial state through the setup chance nodes: Charburners per seat, displayed assistants
    and their sides chosen; the deal takes the lowest card ids. Ends at round 1, phase I."""
    n = g.players
    s = g.initial_state()
    for c in charburners or CHARBURNERS[:n]:
        do(s, f"charburner {c}")
    ids = [a.id for a in g.data.assistants]
    if n < 4:
        display = display or ids[: 2 * n]
        for a in display:
            do(s, f"display {a}")
    else:
        display = ids
    for a in sorted(display, key=ids.index):
        do(s, f"side {(sides or {}).get(a, 0)}")
    while s.is_chance():
        s.apply(s.chance_outcomes()[0][0])
    assert st(s)["stage"] == P1_COMMIT and st(s)["round"] == 1
    return s


def to_sunrise(s: es.State) -> es.State:
    """Phase I with no redraws, to the first Sunrise draw."""
    while st(s)["stage"] in (P1_COMMIT, P1_DRAW):
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
        else:
            do(s, "redraw done")
    assert st(s)["stage"] == SUNRISE and s.is_chance()
    return s


def arrange(s: es.State, hands=None, built=None, goods=None, discard=(), assistants=None, deck=None,
            reserve=(), rest="deck", public_goods=()) -> es.State:
    """The same state with the cards laid out anew (at the first Sunrise draw, or at the start of
    phase I): ``hands`` {seat: [card ids]}, ``built`` {seat: [card ids]} (slots 1, 2, ...),
    ``goods`` {seat: {slot: count or [card ids]}} (default: 7 goods on the Charburner),
    ``discard`` [ids], ``assistants`` {assistant: (seat, slot)}, ``deck`` [ids] (else every card
    not placed). Goods given as counts are cards without a half sun taken from the highest ids,
    never one in ``reserve``. Loaded through state_from_json, which validates it."""
    g = s.game
    n = g.players
    doc = json.loads(s.to_json(format=1))
    j = doc["state"]
    assert j["stage"] in (SUNRISE, P1_COMMIT) and j["market"] == [0, 0]
    every = (1 << n) - 1
    loc: list = [None] * 94
    seen = [0] * 94

    def place(c, where, knows):
        c = cid(g, c) if isinstance(c, str) else c
        assert loc[c] is None, f"{g.data.cards[c].id} placed twice"
        loc[c], seen[c] = where, knows

    hands, built, goods = hands or {}, built or {}, goods or {}
    for p in range(n):
        for name in hands.get(p, ()):
            place(name, L_HAND(p), 1 << p)
        for name in built.get(p, ()):
            place(name, L_BUILT(p), every)
    for name in discard:
        place(name, L_DISCARD, every)
    for name in deck or ():
        place(name, L_DECK, 0)
    keep = {cid(g, x) for x in reserve}
    for p in range(n):
        for what in goods.get(p, {}).values():
            if not isinstance(what, int):
                keep |= {cid(g, x) for x in what}
    free = [c for c in range(93, -1, -1) if loc[c] is None and c not in keep]
    pool = [c for c in free if not g.data.cards[c].sun] + [c for c in free if g.data.cards[c].sun]
    goods_n = [[0] * 10 for _ in range(4)]
    for p in range(n):
        for k, what in goods.get(p, {0: 7}).items():
            chosen = [pool.pop(0) for _ in range(what)] if isinstance(what, int) else [cid(g, x) for x in what]
            for c in chosen:
                place(c, L_GOOD(p, k), every if g.data.cards[c].id in public_goods else 0)
            goods_n[p][k] += len(chosen)
    for c in range(94):
        if loc[c] is None:
            assert rest in ("deck", "discard"), f"{g.data.cards[c].id} has no place"
            place(c, L_DECK if rest == "deck" else L_DISCARD, 0 if rest == "deck" else every)

    def mask(pred):
        bits = sum(1 << c for c in range(94) if pred(c))
        return [bits & (2 ** 64 - 1), bits >> 64]

    j["loc"], j["seen"], j["goods_n"] = loc, seen, goods_n
    j["deck"] = mask(lambda c: loc[c] == L_DECK)
    j["discard"] = mask(lambda c: loc[c] == L_DISCARD)
    j["hand"] = [mask(lambda c, p=p: loc[c] == L_HAND(p)) for p in range(4)]
    for p in range(n):
        cards = [cid(g, x) for x in built.get(p, ())]
        j["slot_card"][p] = [-1] + cards + [-1] * (9 - len(cards))
        j["n_slots"][p] = 1 + len(cards)
    for name, (p, k) in (assistants or {}).items():
        a = aidx(g, name)
        j["asst_owner"][a], j["asst_slot"][a] = p, k
    return g.state_from_json(json.dumps(doc))


def scenario(players=2, charburners=None, display=None, sides=None, data=None, options=None, **layout) -> es.State:
    """A game at its first Sunrise draw with the cards laid out by ``arrange``."""
    g = new_game(players, data=data, **(options or {}))
    s = to_sunrise(setup(g, charburners, display, sides))
    return arrange(s, **layout)


SUNS = {r: [] for r in RES}
NO_SUN = {r: [] for r in RES}


def _index_cards():
    g = new_game(2)
    for c in g.data.cards:
        name = {v: k for k, v in RES.items()}[c.resource]
        (SUNS if c.sun else NO_SUN)[name].append(c.id)


_index_cards()


def market_rows(counts: dict[str, int], avoid=()) -> tuple[list[str], list[str]]:
    """Two market rows with exactly these resource counts (all five resources; at least 4
    cards): each row ends with its 2nd half-sun card."""
    counts = {r: counts.get(r, 0) for r in RES}
    suns: list[str] = []
    plain: list[str] = []
    left = dict(counts)
    for r in sorted(RES, key=lambda r: -counts[r]):
        for name in SUNS[r]:
            if len(suns) < 4 and left[r] > 0 and name not in avoid:
                suns.append(name)
                left[r] -= 1
    assert len(suns) == 4, counts
    for r in RES:
        choice = [x for x in NO_SUN[r] if x not in avoid][: left[r]]
        assert len(choice) == left[r], (r, counts)
        plain += choice
    half = len(plain) // 2
    return plain[:half] + suns[:2], plain[half:] + suns[2:]


def reveal(s: es.State, row: list[str]) -> None:
    """Draw these cards face up into the current market row; the row must close after the last."""
    stage = st(s)["stage"]
    assert stage in (SUNRISE, SUNSET), str(s)
    for name in row:
        assert st(s)["stage"] == stage and s.is_chance(), (name, str(s))
        do(s, f"draw {name}")
    assert st(s)["stage"] != stage, "the row did not close after its second half sun"


def plan(s: es.State, p: int, *steps: str) -> None:
    """Phase II commitment of seat p. A step "aside none" is skipped when forced (empty hand)."""
    for t in steps:
        if t == "aside none" and not (s.current_player == p and st(s)["p2_step"] == 2):
            continue
        assert s.current_player == p and st(s)["stage"] == P2_COMMIT, (p, t, str(s))
        do(s, t)


def finish(s: es.State, p: int) -> None:
    """End seat p's phase IV turn (or final-round turn) without doing anything more."""
    while not s.is_terminal() and not s.is_chance() and s.current_player == p \
            and st(s)["stage"] in (PRODUCE, BUILD, FINAL):
        legal = texts(s)
        for t in ("end production", "pass", "end chains"):
            if t in legal:
                do(s, t)
                break
        else:
            raise AssertionError(f"seat {p} cannot end its turn here: {sorted(legal)}")


def draw_goods(s: es.State, k: int) -> list[str]:
    """k production draws (any cards); the node after them must not be another draw."""
    out = []
    for _ in range(k):
        assert s.is_chance() and st(s)["sub"] == 1, str(s)
        m = s.chance_outcomes()[0][0]
        out.append(s.move_to_str(m))
        s.apply(m)
    assert not (s.is_chance() and st(s)["sub"] == 1), "more goods were drawn than expected"
    return out


def goods(s: es.State, p: int) -> list[int]:
    return st(s)["goods_n"][p][: st(s)["n_slots"][p]]


def hand(s: es.State, p: int) -> list[str]:
    j = st(s)
    return [s.game.data.cards[c].id for c in range(94) if j["loc"][c] == L_HAND(p)]


def gold(s: es.State, p: int) -> int:
    j = st(s)
    g = s.game
    total = 0
    for k in range(j["n_slots"][p]):
        b = g.data.charburners[j["charburner"][p]] if k == 0 else g.data.cards[j["slot_card"][p][k]]
        if b.output >= 0:
            total += j["goods_n"][p][k] * g.data.good_values[b.output]
    return total


def count_loc(s: es.State, where: int) -> int:
    return sum(1 for x in st(s)["loc"] if x == where)


def assert_illegal(s: es.State, move: int) -> None:
    """``move`` is not legal: not listed, and applying it raises and changes nothing."""
    assert move not in s.legal_moves()
    before = s.to_bytes()
    with pytest.raises(es.IllegalMoveError):
        s.apply(move)
    assert s.to_bytes() == before


def to_production(s: es.State, counts: dict, plans: dict, avoid=()) -> None:
    """Sunrise, every seat's planning (``plans`` {seat: [steps]}, default worker on the Charburner,
    short, nothing set aside), Sunset: the market gets exactly ``counts``."""
    j = st(s)
    avoid = set(avoid) | {s.game.data.cards[c].id for c in range(94) if j["loc"][c] != L_DECK}
    row1, row2 = market_rows(counts, avoid)
    reveal(s, row1)
    for p in [(st(s)["start"] + i) % s.game.players for i in range(s.game.players)]:
        plan(s, p, *plans.get(p, ["worker slot0 short", "aside none"]))
    assert st(s)["stage"] == SUNSET, str(s)
    reveal(s, row2)


def market_counts(s: es.State) -> dict[str, int]:
    j = st(s)
    out = {r: 0 for r in RES}
    for c in range(94):
        if j["loc"][c] in (L_MARKET1, L_MARKET2):
            out[{v: k for k, v in RES.items()}[s.game.data.cards[c].resource]] += 1
    return out


# ---------------------------------------------------------------- T1: setup

@pytest.mark.parametrize("players, pile", [(2, 70), (3, 58), (4, 46)])
def test_t1_setup_sizes_OMG_A8_OMG_A16_OMG_A33(players, pile):
    """T1 (spec 3.1, 3.2, 5 C1/C3/C4/C5/C6): one Charburner each, uniform without replacement;
    2n assistants displayed (uniform), each side 1/2 (OMG-A8); the start player a uniform chance
    node when not fixed (OMG-A33); 5 hand cards then 7 goods per seat, nobody looks at the goods
    (OMG-A16); draw pile 94 - 12n, discard pile empty."""
    g = es.game("oh_my_goods", players=players)
    s = g.initial_state()
    for i in range(players):
        p = probs(s)
        assert len(p) == 4 - i and all(x == pytest.approx(1 / (4 - i)) for x in p.values())
        assert all(t.startswith("charburner ") for t in p)
        s.apply(s.chance_outcomes()[-1][0])
    assert sorted(st(s)["charburner"][:players]) == sorted(range(4 - players, 4))
    if players < 4:
        # 2n uniform picks without replacement: C(8, 2n) equally likely displays
        ways = 1.0
        for i in range(2 * players):
            p = probs(s)
            assert len(p) == 8 - i and all(t.startswith("display ") for t in p)
            ways *= p[next(iter(p))] * (2 * players - i)
            s.apply(s.chance_outcomes()[0][0])
        assert ways == pytest.approx(1 / comb(8, 2 * players))
    shown = 0
    while s.is_chance() and all(t.startswith("side ") for t in texts(s)):
        assert probs(s) == {"side 0": 0.5, "side 1": 0.5}
        s.apply(s.chance_outcomes()[shown % 2][0])
        shown += 1
    assert shown == 2 * players
    assert sum(o == -1 for o in st(s)["asst_owner"]) == 2 * players          # on display
    assert sum(o == -3 for o in st(s)["asst_owner"]) == 8 - 2 * players      # back in the box
    p = probs(s)
    assert p == {f"start P{i}": pytest.approx(1 / players) for i in range(players)}
    do(s, f"start P{players - 1}")
    assert st(s)["start"] == players - 1
    draws = []
    while s.is_chance():
        p = probs(s)
        assert all(t.startswith("draw ") for t in p)
        assert all(x == pytest.approx(1 / (94 - len(draws))) for x in p.values())
        draws.append((st(s)["draw_dest"], st(s)["draw_player"]))
        s.apply(s.chance_outcomes()[0][0])
    # hand cards first, 5 per seat in turn order from the start player; then 7 goods per seat
    order = [(players - 1 + i) % players for i in range(players)]
    assert draws == [(1, q) for q in order for _ in range(5)] + [(3, q) for q in order for _ in range(7)]
    j = st(s)
    assert j["stage"] == P1_COMMIT and j["round"] == 1 and s.current_player == players - 1
    for q in range(players):
        assert len(hand(s, q)) == 5
        assert goods(s, q) == [7] and gold(s, q) == 7
        coal = [c for c in range(94) if j["loc"][c] == L_GOOD(q, 0)]
        assert len(coal) == 7 and all(j["seen"][c] == 0 for c in coal)          # nobody looked
        assert all(j["seen"][c] == 1 << q for c in range(94) if j["loc"][c] == L_HAND(q))
    assert count_loc(s, L_DECK) == pile and count_loc(s, L_DISCARD) == 0
    assert s.scores() == [1] * players          # 7 gold = 1 VP each, nothing built


def test_t1_start_player_option_skips_the_chance_node_OMG_A33():
    g = new_game(3)
    s = g.initial_state()
    for c in CHARBURNERS[:3]:
        do(s, f"charburner {c}")
    while s.is_chance():
        assert not any(t.startswith("start ") for t in texts(s))
        s.apply(s.chance_outcomes()[0][0])
    assert st(s)["start"] == 0 and s.current_player == 0


# ---------------------------------------------------------------- T2: market stop rule

def test_t2_market_stop_rule_both_rows():
    """T2 (spec 4.2.1, 4.3): A B* C D E* | F* G H* ; I stays in the pile. The first row's suns do
    not count for the second row."""
    s = scenario(hands={0: ["ca1"], 1: ["ca2"]})
    row = {"A": "m1", "B": "m3", "C": "m2", "D": "m4", "E": "m6", "F": "b2", "G": "b1", "H": "b5", "I": "b3"}
    g = s.game
    assert [card(g, row[x]).sun for x in "ABCDEFGHI"] == [False, True, False, False, True, True, False, True, False]
    for x in "ABCD":
        do(s, f"draw {row[x]}")
        assert s.is_chance() and st(s)["stage"] == SUNRISE
    do(s, f"draw {row['E']}")
    assert not s.is_chance() and st(s)["stage"] == P2_COMMIT     # the market is open: planning
    j = st(s)
    assert [c for c in range(94) if j["loc"][c] == L_MARKET1] == sorted(cid(g, row[x]) for x in "ABCDE")
    plan(s, 0, "worker slot0 short", "aside none")
    plan(s, 1, "worker slot0 short", "aside none")
    assert s.is_chance() and st(s)["stage"] == SUNSET
    do(s, f"draw {row['F']}")
    assert s.is_chance() and st(s)["stage"] == SUNSET, "the second row must not close on its first sun"
    do(s, f"draw {row['G']}")
    assert s.is_chance() and st(s)["stage"] == SUNSET
    do(s, f"draw {row['H']}")
    # the market closed: phase IV (seat 1's Charburner can produce from the all-grain market)
    assert not s.is_chance() and st(s)["stage"] == PRODUCE and s.current_player == 1
    j = st(s)
    assert [c for c in range(94) if j["loc"][c] == L_MARKET2] == sorted(cid(g, row[x]) for x in "FGH")
    assert j["loc"][cid(g, row["I"])] == L_DECK
    assert count_loc(s, L_MARKET1) + count_loc(s, L_MARKET2) == 8


# ---------------------------------------------------------------- T3..T5: normal production

T3_MARKET = {"grain": 1, "wood": 0, "clay": 1, "stone": 1, "wool": 1}


def t3_position(mode: str, hand0: list[str], aside: str = "none") -> es.State:
    """Seat 0: Charburner 2 grain + 1 wood (the rulebook's), worker on it in ``mode``; market
    {grain 1, wood 0}; no offices."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: hand0, 1: []})
    to_production(s, T3_MARKET, {0: [f"worker slot0 {mode}", f"aside {aside}"]})
    assert market_counts(s) == T3_MARKET
    return s


@pytest.mark.parametrize("omit, used", [("wood", "m1"), ("grain", "s1")])
def test_t3_short_mode_one_card_one_coal_OMG_A10_OMG_A16_OMG_A26_OMG_A36(omit, used):
    """T3 (the rulebook's short-mode example; its "Mészégető" is the Charburner, OMG-A26):
    short worker, market 1 grain 0 wood: exactly one hand card, a grain OR a wood, is
    discarded (OMG-A10: one unit omitted), 1 card is drawn onto the Charburner (+1 gold). The
    supplied card is public at once (OMG-A36); the new good is seen by nobody (OMG-A16)."""
    s = t3_position("short", ["m1", "s1", "br1"])          # m1: grain card, s1: wood, br1: clay
    assert s.current_player == 0 and st(s)["stage"] == PRODUCE
    assert texts(s) == {"produce slot0 omit grain", "produce slot0 omit wood", "end production"}
    discard0 = count_loc(s, L_DISCARD)
    do(s, f"produce slot0 omit {omit}")              # the one card needed is forced
    j = st(s)
    assert j["loc"][cid(s.game, used)] == L_DISCARD and j["seen"][cid(s.game, used)] == 3
    assert sorted(hand(s, 0)) == sorted({"m1", "s1", "br1"} - {used})
    assert count_loc(s, L_DISCARD) == discard0 + 1
    deck = count_loc(s, L_DECK)
    assert all(x == pytest.approx(1 / deck) for x in probs(s).values()) and len(probs(s)) == deck
    (drawn,) = draw_goods(s, 1)
    c = cid(s.game, drawn.split()[1])
    j = st(s)
    assert j["loc"][c] == L_GOOD(0, 0) and j["seen"][c] == 0
    assert view(s, 0)["loc"][c] == 255 and view(s, 1)["loc"][c] == 255     # not even the owner
    assert goods(s, 0) == [8] and gold(s, 0) == 8
    if omit == "wood":     # the wood card is still in hand: the Charburner chain (wood -> coal) is open
        assert s.current_player == 0 and j["stage"] == PRODUCE and j["produced"][0] & 1
        assert texts(s) == {"chain slot0 s1", "end production"}


def test_t3a_exact_mode_two_cards_two_coal():
    """T3 variant (a): exact → 1 grain AND 1 wood from hand, 2 cards drawn (+2 gold)."""
    s = t3_position("exact", ["m1", "s1", "br1"])
    assert texts(s) == {"produce slot0", "end production"}
    do(s, "produce slot0")
    assert hand(s, 0) == ["br1"]
    draw_goods(s, 2)
    assert goods(s, 0) == [9] and gold(s, 0) == 9


@pytest.mark.parametrize("mode, hand0", [("exact", ["s1", "br1"]), ("short", ["br1", "ca1"])],
                         ids=["b_exact_no_grain", "c_short_no_grain_no_wood"])
def test_t3bc_no_production_and_no_discard(mode, hand0):
    """T3 variants (b) exact with a wood but no grain, (c) short with neither: no production (an
    exact worker never falls back to short), and no card is discarded."""
    s = t3_position(mode, hand0 + ["br6"], aside="br6")    # a cheap clay card set aside stops at the build step
    j = st(s)
    # seat 0's production offered only END_PRODUCTION, so the engine went past it to the build step
    assert s.current_player == 0 and j["stage"] == BUILD and texts(s) == {"build", "pass"}
    assert sorted(hand(s, 0)) == sorted(hand0)
    assert goods(s, 0) == [7] and j["produced"][0] == 0 and j["tried"][0] == 0
    assert count_loc(s, L_DISCARD) == 0


def t4_position(counts: dict, hand0: list[str]) -> es.State:
    """Seat 0: X = Mill m1 (3 grain + 1 wood) with the worker, exact; Y = the Charburner
    (2 grain + 1 wood) with assistant A1. Both need the one wood."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: hand0, 1: []},
                 built={0: ["m1"]}, assistants={"A1": (0, 0)})
    to_production(s, counts, {0: ["keep A1", "worker slot1 exact", "aside none"]})
    assert market_counts(s) == {r: counts.get(r, 0) for r in RES}
    assert s.current_player == 0 and st(s)["stage"] == PRODUCE
    return s


@pytest.mark.parametrize("order", [("slot1", "slot0"), ("slot0", "slot1")])
def test_t4_market_counts_for_every_building(order):
    """T4: market {wood 1, grain 3}: X (worker, exact) and Y (assistant) both produce with no
    hand cards; the market wood counts for both. X gets 2 goods, Y 1."""
    s = t4_position({"grain": 3, "wood": 1}, ["br1"])
    assert texts(s) == {"produce slot0", "produce slot1", "end production"}
    for slot in order:
        do(s, f"produce {slot}")
        draw_goods(s, 2 if slot == "slot1" else 1)
        assert hand(s, 0) == ["br1"]
    assert goods(s, 0) == [8, 2]


@pytest.mark.parametrize("first, other", [("slot1", "slot0"), ("slot0", "slot1")])
def test_t4_variant_one_hand_wood_serves_one_building(first, other):
    """T4 variant: no wood in the market and exactly one wood card in hand: only one of X, Y can
    produce; a hand card supplies one building only."""
    s = t4_position({"grain": 3, "clay": 1}, ["s1", "br1"])      # s1: the only wood card
    assert texts(s) == {"produce slot0", "produce slot1", "end production"}
    do(s, f"produce {first}")                                    # the wood card is forced
    assert hand(s, 0) == ["br1"]
    draw_goods(s, 2 if first == "slot1" else 1)
    assert f"produce {other}" not in texts(s)
    assert goods(s, 0) == ([7, 2] if first == "slot1" else [8, 0])


def t5_position(counts: dict) -> es.State:
    """Seat 0's assistant A1 on the Charburner (2 grain + 1 wood); the worker on ta1, which it
    cannot work; no wood or grain in hand; a clay card set aside (to stop at the build step)."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["br6", "br1"], 1: []},
                 built={0: ["ta1"]}, assistants={"A1": (0, 0)})
    to_production(s, counts, {0: ["keep A1", "worker slot1 short", "aside br6"]})
    assert market_counts(s) == {r: counts.get(r, 0) for r in RES}
    return s


def test_t5_assistant_is_always_exact():
    """T5: the assistant's building lacks one resource (here: the wood) and the hand has none:
    no production; an assistant has no short mode."""
    s = t5_position({"grain": 2, "clay": 1, "wool": 1})
    assert s.current_player == 0 and st(s)["stage"] == BUILD     # production was forced empty
    assert goods(s, 0) == [7, 0] and st(s)["tried"][0] == 0


def test_t5_variant_assistant_produces_one_good():
    """T5 variant: with the full input in the market the assistant produces 1 good, not 2."""
    s = t5_position({"grain": 2, "wood": 1, "clay": 1})
    assert s.current_player == 0 and st(s)["stage"] == PRODUCE
    assert texts(s) == {"produce slot0", "end production"}
    do(s, "produce slot0")
    draw_goods(s, 1)
    assert goods(s, 0) == [8, 0]


# ---------------------------------------------------------------- T6..T9: production chains

def worker_on_slot1(counts: dict, built: list[str], hand0: list[str], goods0: dict, aside: str = "none",
                    charburners=("charburner_clay", "charburner_wool")) -> es.State:
    """Seat 0 works slot 1 exact; seat 1 just has its Charburner."""
    s = scenario(charburners=list(charburners), hands={0: hand0, 1: []}, built={0: built}, goods={0: goods0})
    to_production(s, counts, {0: ["worker slot1 exact", f"aside {aside}"]})
    assert market_counts(s) == {r: counts.get(r, 0) for r in RES}
    return s


def test_t6_mill_chain_hand_grain_only_OMG_A36():
    """T6 (rulebook example 1): the Mill produced; 3 grain cards in hand, 4 grain in the market.
    Each use shows one hand grain card and lays it on the Mill (+1 flour, +2 gold); 0-3 uses;
    the market grain cannot be used. Negative: no chain before the Mill has produced."""
    s = worker_on_slot1({"grain": 4, "wool": 1}, ["m2"], ["b1", "b3", "b4", "we1"], {0: 7})
    g = s.game
    assert s.current_player == 0 and st(s)["stage"] == PRODUCE
    assert CHAIN not in types(s), "the Mill has not produced yet"
    assert texts(s) == {"produce slot1", "end production"}
    do(s, "produce slot1")
    draw_goods(s, 2)
    assert texts(s) == {"chain slot1 b1", "chain slot1 b3", "chain slot1 b4", "end production"}
    for k, c in enumerate(["b3", "b1", "b4"]):
        assert "end production" in texts(s)
        before = gold(s, 0)
        do(s, f"chain slot1 {c}")
        j = st(s)
        assert j["loc"][cid(g, c)] == L_GOOD(0, 1) and j["seen"][cid(g, c)] == 3     # shown, now flour
        assert gold(s, 0) == before + 2 and st(s)["goods_n"][0][1] == 3 + k
    assert hand(s, 0) == ["we1"]
    # the market still holds 4 grain, but the chain wants hand cards: no further use
    assert not (s.current_player == 0 and CHAIN in types(s))


def test_t7_shoemaker_chain_moves_leather_OMG_A15_OMG_A38():
    """T7 (rulebook example 2): Tannery 2 leather, the Shoemaker produced; two uses move both
    leather goods onto the Shoemaker: Tannery 0, Shoemaker +2, gold -12 + 16 = +4. A good leaves
    a slot by a TAKE chance node, uniform over that slot's goods (OMG-A15); the last one leaves
    without one. The good moved is a leather good, whatever its face (OMG-A38)."""
    s = worker_on_slot1({"grain": 4, "clay": 2}, ["sh2", "ta3"], ["we1", "we2"], {0: 7, 2: 2})
    do(s, "produce slot1")
    draw_goods(s, 2)
    assert texts(s) == {"chain slot1 slot2", "end production"}
    before = gold(s, 0)
    leather = [c for c in range(94) if st(s)["loc"][c] == L_GOOD(0, 2)]
    do(s, "chain slot1 slot2")
    p = probs(s)
    assert p == {f"take {s.game.data.cards[c].id}": 0.5 for c in leather}
    s.apply(s.chance_outcomes()[0][0])
    assert not s.is_chance() and goods(s, 0) == [7, 3, 1]
    do(s, "chain slot1 slot2")              # the last leather: no chance node
    assert goods(s, 0) == [7, 4, 0]
    assert all(st(s)["loc"][c] == L_GOOD(0, 1) for c in leather)
    assert all(st(s)["seen"][c] == 0 for c in leather), "moved goods keep their knowledge mask"
    assert gold(s, 0) == before + 4


def test_t7_negative_no_leather_no_shoemaker_chain():
    """T7 negative: without a Tannery holding leather the Shoemaker chain cannot be used."""
    s = worker_on_slot1({"grain": 4, "clay": 2}, ["sh2", "ta3"], ["we1", "we2"], {0: 7, 2: 0}, aside="we1")
    do(s, "produce slot1")
    draw_goods(s, 2)
    # nothing but END_PRODUCTION: the engine went on to the build step
    assert s.current_player == 0 and st(s)["stage"] == BUILD
    assert goods(s, 0) == [7, 2, 0]


def test_t8_brick_chain_limited_by_coal_OMG_A27_OMG_A30():
    """T8 (rulebook example 3; the hand resource is clay, brick the good, OMG-A27): 3 clay in
    hand, 2 coal: exactly 2 uses; each moves 1 coal + 1 clay
    card onto the brick works as 2 bricks (OMG-A30: a 2-symbol chain gives 2 goods per use).
    +4 bricks, Charburner 0, 1 clay left; gold -2 + 8 = +6."""
    s = worker_on_slot1({"stone": 2, "clay": 2}, ["br3"], ["br1", "br2", "br4"], {0: 2})
    do(s, "produce slot1")
    draw_goods(s, 2)
    assert texts(s) == {"chain slot1 slot0 br1", "chain slot1 slot0 br2", "chain slot1 slot0 br4", "end production"}
    before = gold(s, 0)
    do(s, "chain slot1 slot0 br2")
    assert probs(s) and all(t.startswith("take ") for t in texts(s)) and len(texts(s)) == 2
    s.apply(s.chance_outcomes()[0][0])
    assert goods(s, 0) == [1, 4]
    assert texts(s) == {"chain slot1 slot0 br1", "chain slot1 slot0 br4", "end production"}
    do(s, "chain slot1 slot0 br4")
    assert goods(s, 0) == [0, 6]
    assert hand(s, 0) == ["br1"]
    j = st(s)
    assert all(j["loc"][cid(s.game, c)] == L_GOOD(0, 1) and j["seen"][cid(s.game, c)] == 3 for c in ("br2", "br4"))
    assert sum(1 for c in range(94) if j["loc"][c] == L_GOOD(0, 1) and j["seen"][c] == 0) == 4   # 2 made, 2 coal
    assert gold(s, 0) == before + 6
    assert not (s.current_player == 0 and CHAIN in types(s)), "no coal left: no third use"


def test_t9_bakery_chain_needs_both_inputs():
    """T9: the Bakery produced; Mill 1 flour, Charburner 0 coal: no Bakery chain use."""
    s = worker_on_slot1({"grain": 3, "clay": 2}, ["b4", "m5"], ["we1", "br6"], {0: 0, 2: 1}, aside="br6")
    do(s, "produce slot1")
    draw_goods(s, 2)
    # no chain was offered: production ended by itself, at the build step with the card set aside
    assert s.current_player == 0 and st(s)["stage"] == BUILD
    assert goods(s, 0) == [0, 2, 1]


def test_t9_variant_two_uses_OMG_A30():
    """T9 variant: Charburner 3 coal, Mill 2 flour: at most 2 uses, +4 bread; Mill 0, Charburner 1."""
    s = worker_on_slot1({"grain": 3, "clay": 2}, ["b4", "m5"], ["we1"], {0: 3, 2: 2})
    do(s, "produce slot1")
    draw_goods(s, 2)
    assert texts(s) == {"chain slot1 slot0 slot2", "end production"}
    seen = []
    for _ in range(2):
        do(s, "chain slot1 slot0 slot2")
        while s.is_chance():
            assert all(t.startswith("take ") for t in texts(s))
            seen.append(sorted(probs(s).values())[0])
            s.apply(s.chance_outcomes()[0][0])
    # coal 1/3 and flour 1/2, then coal 1/2 and the last flour without a chance node
    assert seen == [pytest.approx(1 / 3), pytest.approx(1 / 2), pytest.approx(1 / 2)]
    assert goods(s, 0) == [1, 6, 0]
    assert not (s.current_player == 0 and CHAIN in types(s))


# ---------------------------------------------------------------- T10..T13: build and hire

def to_build_step(s: es.State, p: int = 0) -> None:
    """Seat p declines whatever it could produce, to reach its build-or-hire decision."""
    if s.current_player == p and st(s)["stage"] == PRODUCE:
        do(s, "end production")
    assert s.current_player == p and st(s)["stage"] == BUILD, str(s)


def build_position(goods0: dict, built: list[str], hand0: list[str], aside: str, display=None,
                   counts=None) -> es.State:
    s = scenario(charburners=["charburner_clay", "charburner_wool"], hands={0: hand0, 1: ["we1"]},
                 built={0: built}, goods={0: goods0}, display=display)
    to_production(s, counts or {"clay": 2, "wool": 2}, {0: ["worker slot0 short", f"aside {aside}"]})
    to_build_step(s)
    return s


def test_t10_build_payment_minimal_no_change_OMG_A32():
    """T10 (rulebook example): a cost-7 building (w3), Iron Smelter 2 iron (3 each), Mill 1 flour:
    {2 iron + 1 flour} = 8 is the only minimal payment, so the engine takes it by itself; 1 gold
    is lost, no change. The card joins the tableau, face up."""
    s = build_position({0: 0, 1: 2, 2: 1}, ["i5", "m5"], ["w3", "br1"], "w3")
    g = s.game
    assert card(g, "w3").cost == 7
    assert texts(s) == {"build", "pass"}
    discard0 = count_loc(s, L_DISCARD)
    do(s, "build")
    j = st(s)
    assert j["n_slots"][0] == 4 and j["slot_card"][0][3] == cid(g, "w3")
    assert j["loc"][cid(g, "w3")] == L_BUILT(0) and j["seen"][cid(g, "w3")] == 3
    assert goods(s, 0) == [0, 0, 0, 0]
    assert count_loc(s, L_DISCARD) == discard0 + 3
    assert all(j["seen"][c] == 3 for c in range(94) if j["loc"][c] == L_DISCARD)      # spent goods face up
    assert s.current_player == 1


def test_t10_negative_only_minimal_payments_OMG_A32():
    """T10 negative: with 3 iron, {3 iron} = 9 and {2 iron + 1 flour} = 8 are the minimal
    payments; {2 iron} = 6 (too little) and {3 iron + 1 flour} (not minimal) cannot be made."""
    s = build_position({0: 0, 1: 3, 2: 1}, ["i5", "m5"], ["w3", "br1"], "w3")
    do(s, "build")
    assert s.current_player == 0 and st(s)["pay_slot"] == 1
    assert texts(s) == {"pay 2", "pay 3"}
    assert_illegal(s, pay_id(1))
    assert_illegal(s, pay_id(0))
    t = s.clone()
    do(t, "pay 2")                       # then the flour is forced: 8
    while t.is_chance():
        t.apply(t.chance_outcomes()[0][0])
    assert goods(t, 0) == [0, 1, 0, 0]
    do(s, "pay 3")                       # 9 >= 7: the payment ends, the flour stays
    assert goods(s, 0) == [0, 0, 1, 0] and st(s)["n_slots"][0] == 4


def test_t11_cannot_build_card_returns_unrevealed_may_hire_OMG_A17():
    """T11: a cost-12 card set aside with goods worth 9: no BUILD; hiring instead is possible
    (A5 side 0 costs 4 and asks for a yellow and a green building; not onto the worker's
    Charburner, OMG-A18); PASS returns the card to the hand, unrevealed (OMG-A17)."""
    s = build_position({0: 9}, ["m2", "s3"], ["sh2", "br1"], "sh2", display=["A1", "A2", "A3", "A5"])
    g = s.game
    assert card(g, "sh2").cost == 12 and gold(s, 0) == 9
    assert view(s, 1)["aside"][0] == 127 and view(s, 1)["loc"][cid(g, "sh2")] == 255   # present, unknown
    assert texts(s) == {"hire A5 slot1", "hire A5 slot2", "pass"}
    t = s.clone()
    do(s, "pass")
    j = st(s)
    assert j["loc"][cid(g, "sh2")] == L_HAND(0) and j["seen"][cid(g, "sh2")] == 1 and j["aside"][0] == -1
    assert view(s, 1)["loc"][cid(g, "sh2")] == 255
    # hire instead of building: pay 4 coal (TAKE nodes, 1/9, 1/8, ...), the card goes back too
    do(t, "hire A5 slot1")
    for left in (9, 8, 7, 6):
        assert t.is_chance() and all(x == pytest.approx(1 / left) for x in probs(t).values())
        t.apply(t.chance_outcomes()[0][0])
    j = st(t)
    assert j["asst_owner"][aidx(g, "A5")] == 0 and j["asst_slot"][aidx(g, "A5")] == 1
    assert j["loc"][cid(g, "sh2")] == L_HAND(0) and j["seen"][cid(g, "sh2")] == 1
    assert goods(t, 0) == [5, 0, 0]


def t12_position(aside: str) -> es.State:
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["s3", "br1"], 1: []})
    to_production(s, {"grain": 2, "clay": 1, "wool": 1}, {0: ["worker slot0 exact", f"aside {aside}"]})
    return s


def test_t12_set_aside_card_is_no_resource_OMG_A17():
    """T12: the only wood card is set aside; the exact worker is 1 wood short: no production.
    At step 2 the card may be built or returned (OMG-A17)."""
    s = t12_position("s3")
    assert s.current_player == 0 and st(s)["stage"] == BUILD
    assert texts(s) == {"build", "pass"}
    assert goods(s, 0) == [7] and st(s)["tried"][0] == 0 and hand(s, 0) == ["br1"]
    # control: the same hand without setting it aside produces with it
    c = t12_position("none")
    assert c.current_player == 0 and "produce slot0" in texts(c)


def test_t13_no_hire_with_two_assistants_OMG_A35():
    """T13: a player with 2 assistants cannot hire (OMG-A35: the cap), though A5 is on display,
    affordable and its requirement (a yellow and a green building) met. Control: with one
    assistant the same hires are offered."""
    def position(assistants, keeps):
        s = scenario(charburners=["charburner_clay", "charburner_wool"], hands={0: ["br6", "br1"], 1: ["we1"]},
                     built={0: ["m2", "s3"]}, assistants=assistants, display=["A1", "A2", "A3", "A5"])
        to_production(s, {"clay": 2, "wool": 2}, {0: keeps + ["worker slot0 short", "aside br6"]})
        to_build_step(s)
        return s

    s = position({"A1": (0, 1), "A2": (0, 2)}, ["keep A1", "keep A2"])
    assert texts(s) == {"build", "pass"}
    c = position({"A1": (0, 1)}, ["keep A1"])
    assert texts(c) == {"build", "pass", "hire A5 slot2"}      # slot 0: the worker (OMG-A18)


def test_t13_build_or_hire_not_both():
    """T13: with 1 assistant, building uses the turn's action: after BUILD the turn is over and
    no hire follows (build OR hire)."""
    s = scenario(charburners=["charburner_clay", "charburner_wool"], hands={0: ["br6", "br1"], 1: ["we1"]},
                 built={0: ["m2", "s3"]}, assistants={"A1": (0, 1)}, display=["A1", "A2", "A3", "A5"])
    to_production(s, {"clay": 2, "wool": 2}, {0: ["keep A1", "worker slot0 short", "aside br6"]})
    to_build_step(s)
    assert {"build", "hire A5 slot2"} <= texts(s)
    do(s, "build")
    while s.is_chance():
        s.apply(s.chance_outcomes()[0][0])
    assert st(s)["n_slots"][0] == 4
    assert s.current_player != 0 or st(s)["stage"] != BUILD
    assert sum(o == 0 for o in st(s)["asst_owner"]) == 1


# ---------------------------------------------------------------- T14, T15: phase II assistants

def assistant_position(goods0: dict, built: list[str], assistants: dict, hand1=("we1",), options=None) -> es.State:
    s = scenario(charburners=["charburner_clay", "charburner_wool"], hands={0: ["br1"], 1: list(hand1)},
                 built={0: built}, goods={0: goods0}, assistants=assistants, options=options)
    row1, _ = market_rows({"clay": 2, "wool": 2}, avoid={"br1", "we1"})
    reveal(s, row1)
    assert s.current_player == 0 and st(s)["stage"] == P2_COMMIT
    return s


def test_t14_one_person_per_building_OMG_A20_OMG_A21():
    """T14: the assistant sits on the Mill: the worker cannot go there unless the assistant moves
    away (paying 2 gold). Moves go to producing buildings only (OMG-A20: not to the office);
    one move per assistant per round (OMG-A21: the next decision is the worker)."""
    s = assistant_position({0: 7}, ["m2", "office_wood1"], {"A1": (0, 1)})
    assert texts(s) == {"keep A1", "move A1 slot0"}              # not slot 2, a Market Office
    keep = s.clone()
    do(keep, "keep A1")
    assert texts(keep) == {"worker slot0 exact", "worker slot0 short"}
    do(s, "move A1 slot0")            # 2 of the 7 coal: the only minimal payment, made by the engine
    assert types(s) == {WORKER}, "a second move of A1 is not offered"
    assert texts(s) == {"worker slot1 exact", "worker slot1 short"}
    assert st(s)["reserved"][0][0] == 2 and goods(s, 0) == [7, 0, 0]
    do(s, "worker slot1 exact", "aside none")
    plan(s, 1, "worker slot0 short", "aside none")
    # the reveal: the 2 coal leave the Charburner by TAKE nodes (1/7, then 1/6), then Sunset
    for left in (7, 6):
        assert st(s)["stage"] == P2_REVEAL and all(x == pytest.approx(1 / left) for x in probs(s).values())
        s.apply(s.chance_outcomes()[0][0])
    j = st(s)
    assert j["stage"] == SUNSET and goods(s, 0) == [5, 0, 0]
    assert j["asst_slot"][aidx(s.game, "A1")] == 0 and j["worker_slot"][0] == 1


def test_t15_move_cost_minimal_payment_at_reveal_OMG_A20_OMG_A32():
    """T15: A1 moves from the Mill to the Bakery; goods: Charburner 1 coal, Iron Smelter 1 iron.
    The only minimal payment is {1 iron} (3 >= 2, 1 lost): {1 coal} is too little, {coal + iron}
    not minimal. The payment is promised at the commitment and made at the phase II reveal."""
    s = assistant_position({0: 1, 2: 1}, ["m2", "i5", "b4"], {"A1": (0, 1)})
    assert texts(s) == {"keep A1", "move A1 slot0", "move A1 slot2", "move A1 slot3"}
    do(s, "move A1 slot3")            # payment {1 iron} made by the engine: the only minimal one
    assert st(s)["reserved"][0] == [0, 0, 1, 0] + [0] * 6
    do(s, "worker slot1 short", "aside none")
    # seat 1 plans without seeing the move or the reserved iron
    assert s.current_player == 1
    v = view(s, 1)
    assert v["reserved"][0] == [0] * 10 and v["pend_move"][aidx(s.game, "A1")] == -1
    assert goods(s, 0) == [1, 0, 1, 0]                 # not paid yet
    discard0 = count_loc(s, L_DISCARD)
    plan(s, 1, "worker slot0 short", "aside none")
    j = st(s)
    assert j["stage"] == SUNSET
    assert goods(s, 0) == [1, 0, 0, 0] and count_loc(s, L_DISCARD) == discard0 + 1
    assert j["asst_slot"][aidx(s.game, "A1")] == 3 and j["worker_slot"][0] == 1


@pytest.mark.parametrize("view_of", ["to_json", "observation"])
def test_t15_t25_move_and_payment_hidden_from_later_players_OMG_A20(view_of):
    """T15 with T25 / spec 7 step 3: while seat 1 plans, nothing of seat 0's commitment shows:
    moving A1 (and promising the iron) or keeping it must look the same to seat 1."""
    s = assistant_position({0: 1, 2: 1}, ["m2", "i5", "b4"], {"A1": (0, 1)})
    kept = s.clone()
    do(kept, "keep A1", "worker slot0 exact", "aside none")
    do(s, "move A1 slot3", "worker slot1 short", "aside none")
    assert s.current_player == kept.current_player == 1
    if view_of == "to_json":
        a, b = view(s, 1), view(kept, 1)
        assert {k: (a[k], b[k]) for k in a if a[k] != b[k]} == {}
    else:
        assert (s.observation(1) == kept.observation(1)).all()
    assert s.to_json(viewer=0) != kept.to_json(viewer=0)


def test_t15_variant_two_coal_OMG_A32():
    """T15 variant: with 2 coal, {2 coal} is a second minimal payment; {1 coal} is not."""
    s = assistant_position({0: 2, 2: 1}, ["m2", "i5", "b4"], {"A1": (0, 1)})
    do(s, "move A1 slot3")
    assert texts(s) == {"pay 0", "pay 2"}
    assert_illegal(s, pay_id(1))
    t = s.clone()
    do(t, "pay 2")
    assert st(t)["reserved"][0][:3] == [2, 0, 0]
    do(s, "pay 0")
    assert st(s)["reserved"][0][:3] == [0, 0, 1]


def test_no_free_reassignment_OMG_A39():
    """OMG-A39: an assistant stays where it is; moving it costs 2 gold, so a player who cannot pay
    is not asked at all (the only move, keep, is forced) and goes on to the worker."""
    s = assistant_position({0: 1}, ["m2", "b4"], {"A1": (0, 1)})
    assert types(s) == {WORKER}
    assert texts(s) == {"worker slot0 exact", "worker slot0 short", "worker slot2 exact", "worker slot2 short"}


# ---------------------------------------------------------------- T16..T18: Market Offices

T16_MARKET = {"grain": 3, "wool": 2}


def t16_position(hand0: list[str]) -> es.State:
    """Seat 0 owns a wood office; X = its Charburner (2 grain + 1 wood), worker exact; Y = Mill m1
    (3 grain + 1 wood) with assistant A1. Seat 1 (no office): Charburner 2 wool + 1 wood, exact.
    Market: no wood."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: hand0, 1: ["br2"]},
                 built={0: ["m1", "office_wood1"]}, assistants={"A1": (0, 1)})
    to_production(s, T16_MARKET, {0: ["keep A1", "worker slot0 exact", "aside none"],
                                  1: ["worker slot0 exact", "aside none"]})
    assert market_counts(s)["wood"] == 0
    return s


def test_t16_resource_office_counts_for_each_own_building_OMG_A11():
    """T16: the office's wood counts for X and for Y (no hand card needed); it is the owner's only
    (OMG-A11): seat 1, same market, no office, lacks the wood and produces nothing. Negative: the
    Charburner chain (wood -> coal) cannot use the office wood."""
    s = t16_position(["br1", "b1"])            # b1: a grain card, keeps the Mill chain open
    assert s.current_player == 0
    assert texts(s) == {"produce slot0", "produce slot1", "end production"}
    do(s, "produce slot0")
    draw_goods(s, 2)
    do(s, "produce slot1")
    draw_goods(s, 1)
    assert sorted(hand(s, 0)) == ["b1", "br1"] and goods(s, 0) == [9, 1, 0]
    # the Charburner produced, but its chain needs a wood card from hand: the office's wood is no input
    assert texts(s) == {"chain slot1 b1", "end production"}, "a chain never uses an office's resource"
    do(s, "end production")
    # seat 1's turn offered nothing (no wood for its Charburner): the round ended by itself
    assert st(s)["round"] == 2 and goods(s, 1) == [7]


def test_t16_charburner_chain_needs_a_hand_wood():
    """T16 negative, control: the same chain with a wood card in hand is offered."""
    s = t16_position(["br1", "s1"])
    do(s, "produce slot0")
    draw_goods(s, 2)
    assert "chain slot0 s1" in texts(s) and hand(s, 0) == ["br1", "s1"]


def test_offices_stack_OMG_A11():
    """OMG-A11: two wood offices give 2 wood: Mill m3 (2 stone + 2 wood), exact, with no wood in
    the market and none in hand produces; with one office it cannot."""
    def position(offices):
        s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["br1", "br6"], 1: []},
                     built={0: ["m3"] + offices})
        to_production(s, {"stone": 2, "clay": 2}, {0: ["worker slot1 exact", "aside br6"]})
        return s

    s = position(["office_wood1", "office_wood3"])
    assert s.current_player == 0 and texts(s) == {"produce slot1", "end production"}
    do(s, "produce slot1")
    draw_goods(s, 2)
    one = position(["office_wood1"])
    assert one.current_player == 0 and st(one)["stage"] == BUILD and goods(one, 0)[1] == 0


def t17_round2_hand(hand0: list[str], offices: list[str], redraw: tuple = (), **options) -> tuple[int, int]:
    """Seat 0 owns ``offices`` and ends round 1 holding ``hand0``; in round 2's phase I it redraws
    ``redraw``. Returns (cards dealt to seat 0 on top of the redraw, hand size after phase I)."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: hand0, 1: ["we1", "we2", "we3"]},
                 built={0: offices}, options=options)
    to_production(s, {"clay": 2, "wool": 2}, {})
    while st(s)["stage"] in (PRODUCE, BUILD):
        finish(s, s.current_player)
    j = st(s)
    assert j["round"] == 2 and j["stage"] == P1_COMMIT and hand(s, 0) == sorted(hand0, key=lambda x: cid(s.game, x))
    assert j["start"] == 1
    do(s, "redraw done")                     # seat 1 first: the start player moved on
    for c in redraw:
        do(s, f"redraw {c}")
    if st(s)["stage"] == P1_COMMIT:          # (forced when no higher card is left)
        do(s, "redraw done")
    dealt = 0
    while st(s)["stage"] == P1_DRAW:
        assert s.is_chance()
        dealt += st(s)["draw_player"] == 0
        s.apply(s.chance_outcomes()[0][0])
    return dealt - len(redraw), len(hand(s, 0))


def test_t17_extra_card_office_OMG_A12():
    """T17: the extra-card office, 3 cards at the start of phase I, no redraw: 3 cards dealt,
    hand 6. Holding 4: 2 dealt, hand 6. The check uses the hand size at the start of phase I
    (before the redraw), which the redraw never changes (OMG-A12)."""
    assert t17_round2_hand(["br1", "br2", "br3"], ["office_card1"]) == (3, 6)
    assert t17_round2_hand(["br1", "br2", "br3", "br4"], ["office_card1"]) == (2, 6)
    assert t17_round2_hand(["br1", "br2", "br3"], ["office_card1"], redraw=("br1", "br3")) == (3, 6)
    assert t17_round2_hand(["br1", "br2", "br3"], []) == (2, 5)


def test_t17_two_extra_card_offices_OMG_A12():
    """T17 variant: two extra-card offices and 2 cards: 3 dealt (this rulebook: "not two but
    three"); with ``office_extra_card_stacks`` 2 + k = 4."""
    offices = ["office_card1", "office_card3"]
    assert t17_round2_hand(["br1", "br2"], offices) == (3, 5)
    assert t17_round2_hand(["br1", "br2"], offices, office_extra_card_stacks=True) == (4, 6)


@pytest.mark.parametrize("mode, need, made, office", [("exact", 2, 2, "office_clay1"), ("short", 1, 1, "office_clay1"),
                                                      ("exact", 3, 2, "office_card1")])
def test_t18_glassmaker_any_resources_OMG_A10_OMG_A11(mode, need, made, office):
    """T18: Glassmaker g1 (11 of any kinds); 8 market cards + 1 resource office = 9 available.
    Exact: 2 hand cards of any resources, 2 glass. Short: 11 - 1 (OMG-A10), 1 card, 1 glass. The
    office counts toward "any N" (OMG-A11); an extra-card office adds no resource (3 cards)."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["br1", "we1", "ca1"], 1: []},
                 built={0: ["g1", office]})
    to_production(s, {"grain": 2, "wood": 2, "clay": 2, "wool": 2}, {0: [f"worker slot1 {mode}", "aside none"]})
    assert sum(market_counts(s).values()) == 8 and card(s.game, "g1").input_any == 11
    assert s.current_player == 0 and "produce slot1" in texts(s)
    do(s, "produce slot1")
    # canonical order: the first card is offered only if enough higher cards remain
    if need < 3:
        first = {t for t in texts(s) if t.startswith("supply ")}
        hand_ids = sorted(hand(s, 0), key=lambda x: cid(s.game, x))
        assert first == {f"supply {c}" for c in hand_ids[: len(hand_ids) - need + 1]}
    while not s.is_chance() and SUPPLY in types(s):        # (a single remaining choice is forced)
        do(s, sorted(t for t in texts(s) if t.startswith("supply "))[0])
    assert len(hand(s, 0)) == 3 - need
    draw_goods(s, made)
    assert goods(s, 0)[1] == made


def test_every_glassmaker_needs_11_as_printed_in_the_rulebook_OMG_A29():
    """OMG-A29: the rulebook prints the number ("Az Üvegfújó kártya 11 bármilyen nyersanyaggal
    termel üveget"), and a printed number outranks the outside transcription that gave g2 and g3
    12: every bundled Glassmaker needs 11, with its input tagged ``rulebook``."""
    g = new_game()
    glassmakers = [c for c in g.data.cards if c.id in ("g1", "g2", "g3", "g4")]
    assert [c.input_any for c in glassmakers] == [11, 11, 11, 11]
    raw = read_file(DEFAULT_DATA)
    assert {c["id"]: c["tag"]["input"] for c in raw["cards"] if c["id"].startswith("g")} == \
        {"g1": "rulebook", "g2": "rulebook", "g3": "rulebook", "g4": "rulebook"}


def test_glassmaker_short_of_cards_cannot_produce_OMG_A29(tmp_path):
    """OMG-A29 (the data file decides N per card): 8 market + 1 office + 2 hand cards = 11. The
    bundled g2 (11, rulebook) produces with that hand; in a user's file that says 12 for g2 an
    exact worker cannot produce."""
    raw = read_file(DEFAULT_DATA)
    next(c for c in raw["cards"] if c["id"] == "g2")["input_any"] = 12
    twelve = tmp_path / "omg_g2_12.json"
    twelve.write_text(json.dumps(raw))

    def position(data):
        s = scenario(charburners=["charburner_grain", "charburner_wool"], data=data,
                     hands={0: ["br1", "we1", "br6"], 1: []}, built={0: ["g2", "office_clay1"]})
        to_production(s, {"grain": 2, "wood": 2, "clay": 2, "wool": 2}, {0: ["worker slot1 exact", "aside br6"]})
        return s

    s = position(str(twelve))
    assert card(s.game, "g2").input_any == 12
    assert s.current_player == 0 and st(s)["stage"] == BUILD and goods(s, 0)[1] == 0
    s = position(None)
    assert card(s.game, "g2").input_any == 11 and "produce slot1" in texts(s)


# ---------------------------------------------------------------- T19..T21: phase I, the draw pile

def t19_position(**options) -> es.State:
    g = new_game(2, **options)
    s = arrange(setup(g, ["charburner_grain", "charburner_wool"]),
                hands={0: ["br1", "br2", "ca1", "m1", "s1", "we1"], 1: ["br3", "br4", "br5", "br6", "br7"]})
    assert st(s)["stage"] == P1_COMMIT and s.current_player == 0
    return s


def phase1_draws(s: es.State) -> list[int]:
    """Resolve phase I's draws; the seat of each draw, in order."""
    seats = []
    while st(s)["stage"] == P1_DRAW:
        assert s.is_chance()
        seats.append(st(s)["draw_player"])
        s.apply(s.chance_outcomes()[0][0])
    return seats


def test_t19_redraw_any_number_OMG_A2_OMG_A3_OMG_A7():
    """T19: 6 cards, discard 2 (any 2), draw 2, then the deal of 2: hand 8; the discard pile grows
    by 2, face up (OMG-A7). The choice is a hidden commitment (OMG-A3): the next seat's view does
    not depend on it; the draws follow in turn order."""
    s = t19_position()
    assert texts(s) == {f"redraw {c}" for c in hand(s, 0)} | {"redraw done"}
    keep = s.clone()
    do(keep, "redraw done")
    do(s, "redraw br2", "redraw m1")
    assert texts(s) == {"redraw s1", "redraw we1", "redraw done"}      # increasing ids only
    do(s, "redraw done")
    assert s.current_player == 1
    assert s.to_json(viewer=1) == keep.to_json(viewer=1)
    assert (s.observation(1) == keep.observation(1)).all()
    assert len(hand(s, 0)) == 6                                    # nothing moves before the reveal
    do(s, "redraw done")
    j = st(s)
    for c in ("br2", "m1"):
        assert j["loc"][cid(s.game, c)] == L_DISCARD and j["seen"][cid(s.game, c)] == 3
    assert phase1_draws(s) == [0, 0, 0, 0, 1, 1]
    assert len(hand(s, 0)) == 8 and len(hand(s, 1)) == 7 and count_loc(s, L_DISCARD) == 2


def test_t19_all_or_nothing_flag_OMG_A2():
    """T19, 2nd-edition flag ``phase1_redraw = all_or_nothing``: only "discard 0" or "discard all 6"."""
    s = t19_position(phase1_redraw="all_or_nothing")
    assert texts(s) == {"redraw done", "redraw all"}
    do(s, "redraw all")
    do(s, "redraw done")
    assert count_loc(s, L_DISCARD) == 6
    assert phase1_draws(s) == [0] * 8 + [1, 1]
    assert len(hand(s, 0)) == 8


def test_t20_reshuffle_when_the_pile_runs_out_OMG_A4():
    """T20: the draw pile empties after 3 Sunrise cards (1 sun so far); the next card comes from
    the 25 discarded cards, uniformly; the 3 market cards are not reshuffled. Revealing goes on
    until the row's 2nd sun."""
    g = new_game(2)
    s = to_sunrise(setup(g, ["charburner_grain", "charburner_wool"]))
    row = ["br1", "m3", "br2"]                      # no sun, sun, no sun
    discard = [c.id for c in g.data.cards if c.id not in row][:25]
    rest = [c.id for c in g.data.cards if c.id not in row and c.id not in discard]
    s = arrange(s, deck=row, discard=discard, hands={0: rest[:10], 1: rest[10:20]},
                goods={0: {0: rest[20:43]}, 1: {0: rest[43:]}})
    assert count_loc(s, L_DECK) == 3 and count_loc(s, L_DISCARD) == 25
    for c in row:
        do(s, f"draw {c}")
    assert s.is_chance() and st(s)["stage"] == SUNRISE
    p = probs(s)
    assert p == {f"draw {c}": pytest.approx(1 / 25) for c in discard}
    j = st(s)
    assert count_loc(s, L_DISCARD) == 0 and all(j["loc"][cid(g, c)] == L_MARKET1 for c in row)
    assert all(j["seen"][cid(g, c)] == 3 for c in discard)        # everyone knows the new pile
    plain = next(c for c in discard if not card(g, c).sun)
    do(s, f"draw {plain}")
    assert s.is_chance() and st(s)["stage"] == SUNRISE
    do(s, f"draw {next(c for c in discard if card(g, c).sun)}")
    assert st(s)["stage"] == P2_COMMIT and count_loc(s, L_MARKET1) == 5


def test_lazy_reshuffle_includes_the_last_market_OMG_A4():
    """OMG-A4: the reshuffle happens when a draw is needed, not when the pile empties. The pile
    runs out with the round's last market card; at the next draw (round 2's deal) the discard
    pile, which by then holds that market too, becomes the pile."""
    g = new_game(2)
    s = to_sunrise(setup(g, ["charburner_grain", "charburner_wool"]))
    row1, row2 = ["office_card2", "office_wool2"], ["office_stone2", "office_clay2"]      # no resource they need
    discard = ["br1", "br2", "br3", "br4", "br5"]
    s = arrange(s, deck=row1 + row2, discard=discard, hands={0: ["we1"], 1: ["we2"]}, rest="discard")
    loc = st(s)["loc"]
    extra = [c.id for i, c in enumerate(g.data.cards) if loc[i] == L_DISCARD and c.id not in discard]
    reveal(s, row1)
    plan(s, 0, "worker slot0 short", "aside none")
    plan(s, 1, "worker slot0 short", "aside none")
    reveal(s, row2)
    assert count_loc(s, L_DECK) == 0
    while st(s)["stage"] in (PRODUCE, BUILD):
        finish(s, s.current_player)
    assert st(s)["round"] == 2
    do(s, "redraw done")
    do(s, "redraw done")
    assert st(s)["stage"] == P1_DRAW
    p = probs(s)
    assert set(p) == {f"draw {c}" for c in discard + extra + row1 + row2}
    assert all(x == pytest.approx(1 / len(p)) for x in p.values())


def t21_position(hands: dict, deck: list[str]) -> es.State:
    """3 players at the first Sunrise draw: the draw pile holds ``deck``, the discard pile nothing;
    every other card is a good."""
    g = new_game(3)
    s = to_sunrise(setup(g, ["charburner_grain", "charburner_wool", "charburner_clay"]))
    named = set(deck) | {c for h in hands.values() for c in h}
    rest = [c.id for c in g.data.cards if c.id not in named]
    third = len(rest) // 3
    return arrange(s, deck=deck, hands=hands,
                   goods={0: {0: rest[:third]}, 1: {0: rest[third:2 * third]}, 2: {0: rest[2 * third:]}})


def test_t21_exhaustion_half_hands_form_the_pile_OMG_A5():
    """T21: both piles empty, a draw is needed; hands 5, 2, 1: the players, in turn order, choose
    floor(h/2) of their own cards (2, 1, 0) as hidden commitments; these 3 cards become the
    draw pile (each known only to its discarder) and the draw proceeds, uniformly."""
    s = t21_position({0: ["br1", "br2", "br3", "br4", "br5"], 1: ["m1", "m2"], 2: ["s1"]}, ["ca1"])
    g = s.game
    do(s, "draw ca1")                                   # the pile is now empty, the discard pile too
    assert not s.is_chance() and s.current_player == 0 and st(s)["sub"] == 2
    assert texts(s) == {"halve br1", "halve br2", "halve br3", "halve br4"}     # 2 of 5, increasing ids
    other = s.clone()
    do(other, "halve br1", "halve br2")
    do(s, "halve br2")
    assert texts(s) == {"halve br3", "halve br4", "halve br5"}
    do(s, "halve br5")
    assert s.current_player == 1 and texts(s) == {"halve m1", "halve m2"}
    assert s.to_json(viewer=1) == other.to_json(viewer=1), "seat 1 must not see seat 0's choice"
    do(s, "halve m2")
    # seat 2 (one card) discards none: the 3 cards form the pile
    p = probs(s)
    assert p == {f"draw {c}": pytest.approx(1 / 3) for c in ("br2", "br5", "m2")}
    j = st(s)
    assert [j["seen"][cid(g, c)] for c in ("br2", "br5", "m2")] == [1, 1, 2]
    assert [len(hand(s, q)) for q in range(3)] == [3, 1, 1]
    assert st(s)["stage"] == SUNRISE


def test_t21_variant_nothing_collected_row_closes_OMG_A5_OMG_A6():
    """T21 variant: hands 1, 1, 0: nothing can be collected, the pending draw is skipped and the
    Sunrise row closes with the cards it has (OMG-A6: no endless reveal)."""
    s = t21_position({0: ["br1"], 1: ["m1"], 2: []}, ["ca1"])
    do(s, "draw ca1")
    j = st(s)
    assert j["stage"] == P2_COMMIT and s.current_player == 0
    assert [c for c in range(94) if j["loc"][c] == L_MARKET1] == [cid(s.game, "ca1")]
    assert [len(hand(s, q)) for q in range(3)] == [1, 1, 0]


def test_exhaustion_production_gets_fewer_goods_OMG_A5():
    """OMG-A5: an exact worker's second good cannot be drawn (both piles empty, nobody holds 2
    cards): the production gets 1 good, and the building counts as produced."""
    row1, row2 = market_rows({"grain": 3, "wood": 1}, avoid=())
    s = t21_position({0: ["s1"], 1: ["m1"], 2: []}, row1 + row2 + ["ca1"])
    reveal(s, row1)
    plan(s, 0, "worker slot0 exact", "aside none")
    plan(s, 1, "worker slot0 short", "aside none")
    plan(s, 2, "worker slot0 short")
    reveal(s, row2)
    assert s.current_player == 0 and "produce slot0" in texts(s)
    before = goods(s, 0)[0]
    do(s, "produce slot0")                     # the market covers 2 grain + 1 wood: no hand card
    assert probs(s) == {"draw ca1": 1.0}
    draw_goods(s, 1)                           # then no card is left to draw: no second good
    assert goods(s, 0)[0] == before + 1
    assert st(s)["produced"][0] & 1 and texts(s) == {"chain slot0 s1", "end production"}


# ---------------------------------------------------------------- T22, T23: the end

def pay_through(s: es.State) -> None:
    """Resolve the TAKE chance nodes of a payment (any goods leave)."""
    while s.is_chance() and all(t.startswith("take ") for t in texts(s)):
        s.apply(s.chance_outcomes()[0][0])


def t22_position(built1: list[str], assistants: dict, keeps: list[str]) -> es.State:
    """3 players; seat 1 sets aside g3 (cost 2), seat 2 sets aside s2 (cost 3)."""
    s = scenario(players=3, charburners=["charburner_grain", "charburner_wool", "charburner_clay"],
                 hands={0: [], 1: ["g3", "s4"], 2: ["s2"]}, built={1: built1, 2: ["m6"]}, assistants=assistants)
    to_production(s, {"clay": 2, "wool": 2}, {0: ["worker slot0 short"],
                                              1: keeps + ["worker slot0 short", "aside g3"],
                                              2: ["worker slot0 short", "aside s2"]})
    # seat 0 had nothing to do; seat 1 declines its coal
    to_build_step(s, 1)
    assert "build" in texts(s)
    do(s, "build")
    pay_through(s)
    return s


def test_t22_end_trigger_rest_of_round_then_final_round_OMG_A24():
    """T22: seat 1 builds its 8th building (Charburner + 7 cards, one a Market Office: offices
    count, OMG-A24): the end is triggered; seat 2 still takes its phase IV turn, building
    included; then the special final round (not a new round) begins with the next start player."""
    s = t22_position(["m2", "s3", "s5", "g2", "br6", "office_grain1"], {}, [])
    j = st(s)
    assert j["n_slots"][1] == 8 and j["end_triggered"] == 1
    to_build_step(s, 2)
    assert "build" in texts(s)
    do(s, "build")
    pay_through(s)
    j = st(s)
    assert j["n_slots"][2] == 3
    assert j["stage"] == FINAL and j["start"] == 1 and s.current_player == 1 and j["round"] == 1
    # wood -> coal at the Charburner, wood -> planks at the two Sawmills, none of which worked
    assert texts(s) == {"chain slot0 s4", "chain slot2 s4", "chain slot3 s4", "end chains"}


def test_t22_negative_assistants_do_not_count_OMG_A24():
    """T22 negative: 7 buildings plus 2 assistants do not trigger the end: round 2 follows."""
    s = t22_position(["m2", "s3", "s5", "g2", "br6"], {"A1": (1, 1), "A2": (1, 2)}, ["keep A1", "keep A2"])
    j = st(s)
    assert j["n_slots"][1] == 7 and j["end_triggered"] == 0
    while st(s)["stage"] in (PRODUCE, BUILD):
        finish(s, s.current_player)
    assert st(s)["round"] == 2 and st(s)["stage"] == P1_COMMIT


def t23_position(**options) -> es.State:
    """Seat 0: Bakery b1 (never worked, nobody on it), Mill m5 with 1 flour, Charburner 1 coal,
    a Glassmaker g4 (its worker's building) and a wood office; hand: 2 grain cards. Seat 1
    builds its 8th building in round 1 (6 built + g3 set aside)."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], options=options,
                 hands={0: ["b3", "b4"], 1: ["g3"]},
                 built={0: ["b1", "m5", "g4", "office_wood1"], 1: ["m2", "s3", "s5", "g2", "br6", "office_grain1"]},
                 goods={0: {0: 1, 2: 1}, 1: {0: 7}})
    to_production(s, {"clay": 2, "wool": 2}, {0: ["worker slot3 short", "aside none"], 1: ["worker slot0 short", "aside g3"]})
    to_build_step(s, 1)          # seat 0 could do nothing; seat 1 declines its coal and builds
    do(s, "build")
    pay_through(s)
    assert st(s)["end_triggered"] == 1
    return s


def test_t23_final_round_chains_only_OMG_A1_OMG_A31():
    """T23 (default ``final_round = chains_only``, OMG-A1): chains at every building, also one that
    never produced and has no person (OMG-A31): the Bakery once (coal + flour -> 2 bread, gold
    -1 -2 +8 = +5), the Mill twice (+2 each). Nothing else: no draws, no market, no production, no
    building; offices and the Glassmaker have no chain."""
    s = t23_position()
    deck = count_loc(s, L_DECK)
    # seat 1 (first in the final round) has no chain: its END_CHAINS was forced
    j = st(s)
    assert j["stage"] == FINAL and s.current_player == 0
    assert texts(s) == {"chain slot1 slot0 slot2", "chain slot2 b3", "chain slot2 b4", "end chains"}
    g0 = gold(s, 0)
    do(s, "chain slot1 slot0 slot2")
    assert not s.is_chance() and gold(s, 0) == g0 + 5 and goods(s, 0) == [0, 2, 0, 0, 0]
    do(s, "chain slot2 b3")
    assert types(s) <= {CHAIN, END_CHAINS}
    do(s, "chain slot2 b4")
    assert gold(s, 0) == g0 + 9
    # the Bakery would need coal again; the Mill a grain card: nothing left but END_CHAINS
    assert s.is_terminal()
    assert count_loc(s, L_DECK) == deck
    assert goods(s, 0) == [0, 2, 2, 0, 0]


def test_t23_full_round_flag_OMG_A1():
    """T23, flag ``final_round = full_round``: one more complete round (phase I draws, market,
    planning); in its phase IV the Bakery chain is offered without any production there, and
    building is allowed. Then the game ends."""
    s = t23_position(final_round="full_round")
    j = st(s)
    assert j["stage"] == P1_COMMIT and j["round"] == 2 and j["start"] == 1
    assert s.current_player == 0            # seat 1's hand is empty: its redraw is skipped
    do(s, "redraw done")
    dealt = 0
    while st(s)["stage"] == P1_DRAW:
        if st(s)["draw_player"] == 0:
            do(s, f"draw {('w1', 's2')[dealt]}")
            dealt += 1
        else:
            s.apply(s.chance_outcomes()[0][0])
    assert dealt == 2
    to_production(s, {"wool": 4}, {1: ["worker slot0 short", "aside none"],
                                              0: ["worker slot3 short", "aside s2"]})
    finish(s, 1)
    assert s.current_player == 0 and st(s)["stage"] == PRODUCE
    assert "chain slot1 slot0 slot2" in texts(s) and "chain slot2 b3" in texts(s)
    do(s, "chain slot1 slot0 slot2")
    do(s, "end production")
    assert "build" in texts(s)
    do(s, "build")
    pay_through(s)
    assert st(s)["n_slots"][0] == 6
    assert s.is_terminal()


# ---------------------------------------------------------------- T24: scoring

def t24_game(q_coal: int) -> es.State:
    """Seat 0 (P): buildings 14 VP, assistant A1 (side 0: 2 VP), Charburner 3 coal, Shoemaker 2
    shoes, Mill 1 flour: G = 21. Seat 1 (Q): buildings 16 VP, Charburner ``q_coal`` coal and a
    Shoemaker with 2 shoes. ``round_cap = 1`` (OMG-A37) ends the game after this round, which
    nobody can change (no production possible, nothing set aside)."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], options={"round_cap": 1},
                 hands={0: [], 1: []},
                 built={0: ["sh1", "m1", "b1", "tl1", "we2"], 1: ["sh2", "bu3", "f2", "c2"]},
                 goods={0: {0: 3, 1: 2, 2: 1}, 1: {0: q_coal, 1: 2}}, assistants={"A1": (0, 3)})
    g = s.game
    assert sum(card(g, c).vp for c in ["sh1", "m1", "b1", "tl1", "we2"]) == 14
    assert sum(card(g, c).vp for c in ["sh2", "bu3", "f2", "c2"]) == 16
    assert g.data.assistants[aidx(g, "A1")].sides[0].vp == 2
    assert gold(s, 0) == 21 and gold(s, 1) == q_coal + 16
    to_production(s, {"clay": 2, "stone": 2}, {0: ["keep A1", "worker slot0 short"], 1: ["worker slot0 short"]})
    while not s.is_terminal():
        finish(s, s.current_player)
    assert gold(s, 0) == 21 and gold(s, 1) == q_coal + 16
    return s


def test_t24_scoring_and_leftover_gold_tie_break_OMG_A25_OMG_A37():
    """T24: P = 14 + 2 + floor(21/5) = 20 (remainder 1), Q = 16 + 0 + floor(20/5) = 20
    (remainder 0): tied on VP, P wins on the larger remainder (OMG-A25)."""
    s = t24_game(4)
    assert s.scores() == [20, 20]
    assert s.returns() == [1.0, 0.0]


def test_t24_variant_shared_victory_OMG_A25():
    """T24 variant: equal VP and equal remainder: a shared victory (OMG-A25)."""
    s = t24_game(5)                          # Q: G = 21, 16 + 4 = 20, remainder 1
    assert s.scores() == [20, 20]
    assert s.returns() == [0.5, 0.5]


def test_round_cap_ends_and_scores_OMG_A37():
    """OMG-A37: with ``round_cap = 2`` the game ends after round 2, scored as usual (no final
    round); returns stay 0 until the end."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], options={"round_cap": 2},
                 hands={0: [], 1: []}, goods={0: {0: 7}, 1: {0: 11}})
    for rnd, counts in ((1, {"clay": 2, "stone": 2}), (2, {"wool": 4})):
        while st(s)["stage"] in (P1_COMMIT, P1_DRAW):
            if s.is_chance():
                s.apply(s.chance_outcomes()[0][0])
            else:
                do(s, "redraw done")
        assert st(s)["round"] == rnd and s.returns() == [0.0, 0.0] and not s.is_terminal()
        to_production(s, counts, {})
        while st(s)["stage"] in (PRODUCE, BUILD):
            finish(s, s.current_player)
    assert s.is_terminal() and st(s)["round"] == 2
    assert s.scores() == [1, 2] and s.returns() == [0.0, 1.0]


# ---------------------------------------------------------------- T25, T26

def test_t25_simultaneity_masking():
    """T25 (spec 7): seat 0 (start player) commits its worker to slot 2, exact, and sets a card
    aside. When seat 1 decides, its view shows neither the worker nor whether a card was set
    aside. After seat 1 (the last) commits, the reveal shows both workers and modes, and that
    seat 0 set a card aside, but not which."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["br1", "br2"], 1: ["we1"]},
                 built={0: ["m2", "s3"]})
    row1, row2 = market_rows({"clay": 2, "wool": 2}, avoid={"br1", "br2", "we1"})
    reveal(s, row1)
    a, b = s.clone(), s.clone()
    plan(a, 0, "worker slot2 exact", "aside br1")
    plan(b, 0, "worker slot0 short", "aside none")
    assert a.current_player == b.current_player == 1
    assert a.to_json(viewer=1) == b.to_json(viewer=1)
    assert (a.observation(1) == b.observation(1)).all()
    assert a.legal_moves() == b.legal_moves()
    v = view(a, 1)
    assert v["worker_slot"][0] == -1 and v["pend_worker"][0] == -1 and v["pend_aside"][0] == -1
    assert a.to_json(viewer=0) != b.to_json(viewer=0)          # (the test can see a difference)
    for t in (a, b):
        plan(t, 1, "worker slot0 exact", "aside none")
        assert st(t)["stage"] == SUNSET
    v = view(a, 1)
    assert v["worker_slot"][:2] == [2, 0] and v["worker_exact"][:2] == [1, 1]
    assert v["aside"][0] == 127 and v["loc"][cid(a.game, "br1")] == 255          # there, unknown
    assert view(b, 1)["aside"][0] == -1 and view(b, 1)["worker_slot"][0] == 0
    assert st(a)["aside"][0] == cid(a.game, "br1") and view(a, 0)["aside"][0] == cid(a.game, "br1")


def test_t26_short_worker_omission_choice_OMG_A10():
    """T26: short worker on a 2 stone + 2 wool building (Weaving Mill we5); market {stone 1,
    wool 2}; hand: 1 stone card. Omitting a stone needs no hand card, 1 good. Omitting a wool
    would need the stone card, also 1 good: the engine must offer the cheaper omission, and may
    offer the other."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["office_clay1", "br1"], 1: []},
                 built={0: ["we5"]})
    to_production(s, {"stone": 1, "wool": 2, "grain": 1}, {0: ["worker slot1 short", "aside none"]})
    assert market_counts(s) == {"grain": 1, "wood": 0, "clay": 0, "stone": 1, "wool": 2}
    assert s.current_player == 0
    produce = {t for t in texts(s) if t.startswith("produce slot1")}
    assert "produce slot1 omit stone" in produce
    assert produce <= {"produce slot1 omit stone", "produce slot1 omit wool"}
    if "produce slot1 omit wool" in produce:
        t = s.clone()
        do(t, "produce slot1 omit wool")
        assert hand(t, 0) == ["br1"]
        draw_goods(t, 1)
        assert goods(t, 0)[1] == 1
    do(s, "produce slot1 omit stone")
    draw_goods(s, 1)
    assert goods(s, 0)[1] == 1 and sorted(hand(s, 0)) == ["br1", "office_clay1"]


# ---------------------------------------------------------------- more resolutions of section 10

def test_worker_mandatory_unless_every_building_has_an_assistant_OMG_A9():
    """OMG-A9: the worker must be placed (the decision offers nothing but WORKER moves); when
    assistants occupy every producing building, it is not placed at all. Production itself may be
    declined: END_PRODUCTION is always legal."""
    s = assistant_position({0: 7}, ["m2", "office_wood1"], {"A1": (0, 1)})
    do(s, "keep A1")
    assert types(s) == {WORKER}
    full = assistant_position({0: 7}, ["m2", "office_wood1"], {"A1": (0, 1), "A2": (0, 0)})
    # both assistants can only stay (no free producing building), no worker: the set-aside is next
    assert full.current_player == 0 and texts(full) == {"aside br1", "aside none"}
    do(full, "aside none")
    plan(full, 1, "worker slot0 short", "aside none")
    assert st(full)["worker_slot"][0] == -1 and st(full)["stage"] == SUNSET


def test_same_turn_goods_feed_chains_OMG_A13():
    """OMG-A13: productions and chains interleave freely; flour the Mill produced this turn feeds
    the Bakery chain at once, and a chain opens once its own building has produced."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["we1"], 1: []},
                 built={0: ["b4", "m5"]}, goods={0: {0: 2}}, assistants={"A1": (0, 1)})
    to_production(s, {"grain": 3, "clay": 2}, {0: ["keep A1", "worker slot2 exact", "aside none"]})
    assert texts(s) == {"produce slot1", "produce slot2", "end production"}
    do(s, "produce slot2")                    # the Mill first: 2 flour
    draw_goods(s, 2)
    assert CHAIN not in types(s), "the Bakery has not produced yet"
    do(s, "produce slot1")                    # the Bakery (assistant): 1 bread
    draw_goods(s, 1)
    assert texts(s) == {"chain slot1 slot0 slot2", "end production"}
    do(s, "chain slot1 slot0 slot2")
    pay_through(s)
    assert goods(s, 0) == [1, 3, 1]


def test_chain_good_source_is_chosen_OMG_A14_OMG_A23():
    """OMG-A14: with two Mills holding flour (duplicates allowed, OMG-A23) the Bakery chain offers
    either as the flour source."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["we1"], 1: []},
                 built={0: ["b4", "m5", "m6"]}, goods={0: {0: 2, 2: 1, 3: 1}})
    to_production(s, {"grain": 3, "clay": 2}, {0: ["worker slot1 exact", "aside none"]})
    do(s, "produce slot1")
    draw_goods(s, 2)
    assert texts(s) == {"chain slot1 slot0 slot2", "chain slot1 slot0 slot3", "end production"}
    do(s, "chain slot1 slot0 slot3")
    pay_through(s)
    assert goods(s, 0) == [1, 4, 1, 0]


def a18_build_step(**options) -> es.State:
    """Seat 0's worker produced at s3 (slot 2, short); seat 0 can afford and qualifies for A5."""
    s = scenario(charburners=["charburner_clay", "charburner_wool"], hands={0: ["br1"], 1: ["we1"]},
                 built={0: ["m2", "s3"]}, goods={0: {0: 9}}, display=["A1", "A2", "A3", "A5"],
                 options=options)
    to_production(s, {"clay": 2, "wool": 2}, {0: ["worker slot2 short", "aside none"]})
    do(s, "produce slot2 omit wool")          # s3: 3 wool + 1 clay, short: omit one wool
    draw_goods(s, 1)
    to_build_step(s)
    assert st(s)["worker_slot"][0] == 2
    return s


A18_READINGS = [({}, False), ({"worker_leaves_after_production": False}, False),
                ({"worker_leaves_after_production": True}, True)]


@pytest.mark.parametrize("options, leaves", A18_READINGS, ids=["default", "first_edition", "second_edition"])
def test_hired_assistant_not_on_the_workers_building_OMG_A18(options, leaves):
    """OMG-A18, the Hungarian (first-edition) text by default: each building holds one worker,
    the brown one or an assistant ("minden épülethez csak egy Munkás rendelhető, legyen az barna
    keretű Munkás vagy Segédmunkás!"), and the text never says the worker leaves after
    production; so the assistant hired "immediately" ("azonnal") may not go onto the building
    the brown worker is on this round. ``worker_leaves_after_production = True`` (2nd edition)
    lets it go there."""
    s = a18_build_step(**options)
    hires = {t for t in texts(s) if t.startswith("hire ")}
    assert hires == ({"hire A5 slot0", "hire A5 slot1", "hire A5 slot2"} if leaves else
                     {"hire A5 slot0", "hire A5 slot1"})
    if not leaves:
        with pytest.raises(es.IllegalMoveError):
            s.apply(s.str_to_move("hire A5 slot2"))
        assert "hire A5 slot1" in texts(s), "the refused hire left the state unchanged"


def without_fingerprint(text: str) -> str:
    """A state document with its data/options fingerprint removed, so that the rules' own
    state check (not the fingerprint) decides whether another game accepts it."""
    doc = json.loads(text)
    del doc["fingerprint"]
    return json.dumps(doc)


def test_worker_and_assistant_on_one_building_is_a_bad_state_by_default_OMG_A18():
    """OMG-A18 in the state check: a hire onto the worker's building (legal in the 2nd edition),
    during its payment and after it, gives states that a game with the default (Hungarian) rules
    refuses to load, and a game with ``worker_leaves_after_production = True`` accepts."""
    s = a18_build_step(worker_leaves_after_production=True)
    do(s, "hire A5 slot2")
    paying = s.to_json()                           # the hire's payment is under way
    assert new_game(worker_leaves_after_production=True).state_from_json(paying).to_json() == paying
    with pytest.raises(es.StateFormatError, match="other game data or options"):
        new_game().state_from_json(paying)          # the fingerprint names the options first
    with pytest.raises(es.StateFormatError, match="a hiring payment"):
        new_game().state_from_json(without_fingerprint(paying))
    do(s, "pay 4")                                 # A5 costs 4: four of the 9 coal
    pay_through(s)
    j = st(s)
    assert j["asst_slot"][aidx(s.game, "A5")] == 2 and j["worker_slot"][0] == 2
    assert j["stage"] == PRODUCE and s.current_player == 1, "seat 1's turn; seat 0's worker stays"
    text = s.to_json()
    assert new_game(worker_leaves_after_production=True).state_from_json(text).to_json() == text
    with pytest.raises(es.StateFormatError, match="worker and assistant on one slot"):
        new_game().state_from_json(without_fingerprint(text))


@pytest.mark.parametrize("options, leaves", A18_READINGS, ids=["default", "first_edition", "second_edition"])
def test_phase2_worker_and_moved_assistant_share_no_building_in_both_readings_OMG_A18(options, leaves):
    """OMG-A18, phase II: the editions differ only in phase IV. Both place the worker anew every
    round ("tegyék a saját barna keretes Munkás kártyájukat az elé az épületük elé, amellyel a
    körben termelni akarnak"), one person per building ("Minden épülethez csak egy Munkás
    rendelhető"), and an assistant moves only in phase II ("azt a második fázisban teheted
    meg"): it may move to any producing building without an assistant, and the worker then goes
    to a building without one."""
    s = assistant_position({0: 7}, ["m2", "s3"], {"A1": (0, 1)}, options=options)
    assert texts(s) == {"keep A1", "move A1 slot0", "move A1 slot2"}
    do(s, "move A1 slot2")
    assert texts(s) == {f"worker slot{k} {m}" for k in (0, 1) for m in ("exact", "short")}


def omg_a19_data(tmp_path: Path) -> str:
    """The bundled data with other (provisional) assistants: sides asking for the Charburner's
    colour (lightblue), the Market Offices' (black), and for yellow."""
    bundled = Path(es.__file__).resolve().parent / "data" / "oh_my_goods.toml"
    text = bundled.read_text()
    reqs = ["{lightblue = 1}", "{black = 1}", "{yellow = 1}", "{lightblue = 2}",
            "{green = 1}", "{red = 1}", "{blue = 1}", "{yellow = 2}"]
    rows = "".join(f'  {{id = "A{i + 1}", sides = [{{cost = 1, vp = 1, requires = {r}}}, '
                   f'{{cost = 1, vp = 1, requires = {{green = 3}}}}], tag = "provisional"}},\n'
                   for i, r in enumerate(reqs))
    new, n = re.subn(r"(?ms)^assistants = \[\n.*?^\]\n", "assistants = [\n" + rows + "]\n", text)
    assert n == 1
    path = tmp_path / "omg_a19.toml"
    path.write_text(new)
    return str(path)


def test_assistant_colours_charburner_and_offices_OMG_A19(tmp_path):
    """OMG-A19: built cards count by card colour; the Charburner counts as its own colour
    (lightblue) only, once; a Market Office as stone (black). Seat 0: Charburner 2 grain + 1 wood
    and a wood office, and a Brick Manufacture (red, asked for by no displayed side) as the
    building free for the hire (the worker is on the Charburner, OMG-A18): the lightblue-1 and
    black-1 sides are met, yellow-1 (the Charburner's grain input does not make it yellow) and
    lightblue-2 are not."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["br1"], 1: ["we1"]},
                 built={0: ["office_wood1", "br3"]}, data=omg_a19_data(tmp_path), display=["A1", "A2", "A3", "A4"])
    to_production(s, {"clay": 2, "stone": 2}, {0: ["worker slot0 short", "aside none"]})
    to_build_step(s)
    assert {t for t in texts(s) if t.startswith("hire ")} == {"hire A1 slot2", "hire A2 slot2"}


def test_charburner_is_not_yellow_bundled_data_OMG_A19():
    """OMG-A19 with the bundled data: A1 side 0 asks for 2 yellow buildings: a Mill plus the
    grain Charburner is not enough, two Mills are."""
    def hires(built):
        s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["br1"], 1: ["we1"]},
                     built={0: built}, goods={0: {0: 9}})
        to_production(s, {"clay": 2, "stone": 2}, {0: ["worker slot0 short", "aside br1"]})
        to_build_step(s)                     # br1 (cost 5) is affordable: the decision is shown
        return {t for t in texts(s) if t.startswith("hire A1")}

    assert hires(["m2"]) == set()
    assert hires(["m2", "m6"]) == {"hire A1 slot1", "hire A1 slot2"}    # slot 0: the worker (OMG-A18)


def test_hired_assistant_works_from_next_round_and_stays_OMG_A22_OMG_A35():
    """OMG-A22: an assistant hired in phase IV produces from the next round on (its building is
    then activated, without the worker); it stays with its owner (OMG-A35: never returned)."""
    s = scenario(charburners=["charburner_clay", "charburner_wool"], hands={0: ["br1"], 1: ["we1"]},
                 built={0: ["m2", "s3"]}, goods={0: {0: 9}}, display=["A1", "A2", "A3", "A5"])
    to_production(s, {"clay": 2, "stone": 2}, {0: ["worker slot0 short", "aside none"]})
    to_build_step(s)
    do(s, "hire A5 slot1")
    pay_through(s)
    a5 = aidx(s.game, "A5")
    assert st(s)["asst_owner"][a5] == 0 and st(s)["asst_slot"][a5] == 1
    assert s.current_player != 0 or st(s)["stage"] not in (PRODUCE, BUILD)
    while st(s)["stage"] in (PRODUCE, BUILD):
        finish(s, s.current_player)
    assert st(s)["round"] == 2
    while st(s)["stage"] in (P1_COMMIT, P1_DRAW):
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
        else:
            do(s, "redraw done")
    # m2 needs 3 grain + 1 wool: the market covers it; the worker goes elsewhere
    to_production(s, {"grain": 3, "wool": 1}, {1: ["worker slot0 short", "aside none"],
                                               0: ["keep A5", "worker slot2 short", "aside none"]})
    finish(s, 1)
    assert s.current_player == 0 and "produce slot1" in texts(s)
    do(s, "produce slot1")
    draw_goods(s, 1)
    assert goods(s, 0)[1] == 1 and st(s)["asst_owner"][a5] == 0


def test_bundled_data_green_is_wood_no_brewery_OMG_A28_OMG_A34():
    """OMG-A34 (data): the 26 green cards are wood; 17 of every other resource (spec 2.3).
    OMG-A28: the "Sörfőzde" (Brewery) caption has no card."""
    g = new_game(2)
    counts = {r: sum(c.resource == i for c in g.data.cards) for r, i in RES.items()}
    assert counts == {"grain": 17, "wood": 26, "clay": 17, "stone": 17, "wool": 17}
    assert g.data.colour_of["wood"] == "green"
    assert not any("brew" in c.kind.lower() for c in g.data.cards)


def test_reserved_goods_cannot_pay_a_second_move_OMG_A20():
    """OMG-A20 / spec 7: goods promised to a pending move are not available to the next payment:
    with 3 coal, moving A1 reserves 2; A2's move would need 2 more, so only "keep A2" is left."""
    s = assistant_position({0: 3}, ["m2", "b4", "s3"], {"A1": (0, 1), "A2": (0, 2)})
    assert texts(s) == {"keep A1", "move A1 slot0", "move A1 slot3"}
    do(s, "move A1 slot3")              # 2 of 3 coal: PAY(2), the only minimal payment
    # A2 could move to slot 1 (now free) if 2 gold were left: it is not asked, the worker is next
    assert types(s) == {WORKER}
    assert texts(s) == {"worker slot0 exact", "worker slot0 short", "worker slot1 exact", "worker slot1 short"}
    c = assistant_position({0: 4}, ["m2", "b4", "s3"], {"A1": (0, 1), "A2": (0, 2)})
    do(c, "move A1 slot3")
    assert texts(c) == {"keep A2", "move A2 slot0", "move A2 slot1"}        # control: 2 coal left


def test_goods_made_this_turn_pay_for_the_building():
    """Spec 4.4.6: goods produced earlier in the same turn may pay for the building. The
    Charburner starts empty; its 2 new coal pay for br6 (cost 2)."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["br6", "we1"], 1: []},
                 goods={0: {0: 0}})
    to_production(s, {"grain": 2, "wood": 1, "clay": 1}, {0: ["worker slot0 exact", "aside br6"]})
    assert texts(s) == {"produce slot0", "end production"}
    do(s, "produce slot0")
    draw_goods(s, 2)
    assert texts(s) == {"build", "pass"}
    do(s, "build")
    assert st(s)["n_slots"][0] == 2 and goods(s, 0) == [0, 0]


def test_no_goods_drawn_no_chain_OMG_A5():
    """Spec 4.4.3: a chain needs its building to have produced at least one good. An exact
    production that gets no card at all (both piles empty, nobody holds 2 cards) leaves the
    Charburner unproduced: its chain (wood -> coal) stays closed though a wood card is in hand."""
    row1, row2 = market_rows({"grain": 3, "wood": 1}, avoid=())
    s = t21_position({0: ["s1"], 1: ["m1"], 2: []}, row1 + row2)
    reveal(s, row1)
    plan(s, 0, "worker slot0 exact", "aside none")
    plan(s, 1, "worker slot0 short", "aside none")
    plan(s, 2, "worker slot0 short")
    reveal(s, row2)
    before = goods(s, 0)[0]
    assert s.current_player == 0 and texts(s) == {"produce slot0", "end production"}
    do(s, "produce slot0")
    # no draw was possible; nothing else to do: the turn went on
    assert goods(s, 0)[0] == before and hand(s, 0) == ["s1"]
    assert not (s.current_player == 0 and st(s)["stage"] == PRODUCE)


def test_only_displayed_assistants_can_be_hired_OMG_A35():
    """Spec 4.4.7 / OMG-A35: only an assistant on display can be hired: A5 (whose side 0 seat 0
    meets) is in the box in this game, so no hire is offered."""
    s = scenario(charburners=["charburner_clay", "charburner_wool"], hands={0: ["br6", "br1"], 1: ["we1"]},
                 built={0: ["m2", "s3"]}, display=["A1", "A2", "A3", "A4"])
    to_production(s, {"clay": 2, "wool": 2}, {0: ["worker slot0 short", "aside br6"]})
    to_build_step(s)
    assert st(s)["asst_owner"][aidx(s.game, "A5")] == -3
    assert texts(s) == {"build", "pass"}


def test_new_building_works_from_next_round_OMG_A22():
    """OMG-A22: a building built in phase IV can take the worker from the next round on."""
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["br6", "we1"], 1: []})
    to_production(s, {"clay": 2, "wool": 2}, {0: ["worker slot0 short", "aside br6"]})
    to_build_step(s)
    do(s, "build")
    pay_through(s)
    while st(s)["stage"] in (PRODUCE, BUILD):
        finish(s, s.current_player)
    while st(s)["stage"] in (P1_COMMIT, P1_DRAW):
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
        else:
            do(s, "redraw done")
    row1, _ = market_rows({"wool": 4}, avoid={c.id for i, c in enumerate(s.game.data.cards)
                                              if st(s)["loc"][i] != L_DECK})
    reveal(s, row1)
    plan(s, 1, "worker slot0 short", "aside none")
    assert s.current_player == 0
    assert texts(s) == {"worker slot0 exact", "worker slot0 short", "worker slot1 exact", "worker slot1 short"}


@pytest.mark.parametrize("aside", ["w3", "w1", "sh2", "f3"])
def test_payments_are_exactly_the_minimal_multisets_OMG_A32(aside):
    """OMG-A32: the PAY decisions reach exactly the minimal payments: every vector k (goods per
    slot) with sum >= cost from which no single paid good could be left out. Goods: Charburner 3
    coal (1), Mill 2 flour (2), Iron Smelter 2 iron (3), Tannery 1 leather (6); costs 7, 9, 12, 17."""
    s = scenario(charburners=["charburner_clay", "charburner_wool"], hands={0: [aside, "br1"], 1: ["we1"]},
                 built={0: ["m5", "i5", "ta3"]}, goods={0: {0: 3, 1: 2, 2: 2, 3: 1}})
    to_production(s, {"clay": 2, "wool": 2}, {0: ["worker slot1 short", "aside " + aside]})
    to_build_step(s)
    cost, have, value = card(s.game, aside).cost, goods(s, 0), [1, 2, 3, 6]
    want = set()
    for k in product(*(range(h + 1) for h in have)):
        total = sum(a * v for a, v in zip(k, value))
        if total >= cost and all(total - v < cost for a, v in zip(k, value) if a):
            want.add(k)
    got = set()

    def explore(t):
        if not t.is_chance() and t.current_player == 0 and st(t)["sub"] == 3:        # a PAY decision
            assert types(t) == {PAY}
            for m in t.legal_moves():
                u = t.clone()
                u.apply(m)
                explore(u)
            return
        pay_through(t)
        got.add(tuple(a - b for a, b in zip(have, goods(t, 0)[:4])))
        assert st(t)["n_slots"][0] == 5

    s.apply(s.str_to_move("build"))
    explore(s)
    assert want and got == want


def test_assistant_move_targets_are_judged_in_order_OMG_A20():
    """OMG-A20 / spec 4.2.2a asks for a legal *final* configuration, which would let A1 move
    onto A2's building if A2 then moves away. The engine judges each move on the layout so
    far (docs/oh_my_goods_engine.md, phase II): assistants are interchangeable, so every final
    layout the spec's rule reaches is also reached in order, for no more gold (A1 onto slot 2
    and A2 onto slot 3 costs 4 gold; A1 straight onto slot 3 gives the same layout for 2).
    Only such dominated double moves are left out."""
    s = assistant_position({0: 7}, ["m2", "b4", "s3"], {"A1": (0, 1), "A2": (0, 2)})
    assert "move A1 slot2" not in texts(s)
    assert {"keep A1", "move A1 slot0", "move A1 slot3"} == texts(s)
    do(s, "move A1 slot3")
    assert s.current_player == 0
    while any(t.startswith("pay ") for t in texts(s)):   # the move's 2 gold, if not forced
        do(s, sorted(t for t in texts(s) if t.startswith("pay "))[0])
    assert "move A2 slot3" not in texts(s), "A1 now stands on slot 3"
    assert {"keep A2", "move A2 slot0", "move A2 slot1"} <= texts(s)


def test_move_ids_follow_the_contract_bit_layout():
    """docs/oh_my_goods_engine.md "Move ids": type in bits 0-4, parameters above (the negative
    checks above build ids this way)."""
    g = new_game(2)
    s = g.initial_state()
    assert s.str_to_move("charburner charburner_stone") == CHARBURNER | 2 << 5
    do(s, "charburner charburner_stone", "charburner charburner_grain")
    assert s.str_to_move("display A7") == DISPLAY | 6 << 5
    for a in ("A1", "A2", "A3", "A7"):
        do(s, f"display {a}")
    assert s.str_to_move("side 1") == SIDE | 1 << 5
    u = es.game("oh_my_goods", players=2).initial_state()
    while not any(x.startswith("start ") for x in texts(u)):
        u.apply(u.chance_outcomes()[0][0])
    assert u.str_to_move("start P1") == START | 1 << 5
    s = t19_position()
    assert s.str_to_move("redraw m1") == REDRAW | cid(g, "m1") << 5
    assert s.str_to_move("redraw done") == REDRAW | 127 << 5
    assert t19_position(phase1_redraw="all_or_nothing").str_to_move("redraw all") == REDRAW | 126 << 5
    s = t3_position("short", ["m1", "s1", "br1"])
    assert s.str_to_move("produce slot0 omit wood") == PRODUCE_M | 0 << 5 | RES["wood"] << 9
    assert s.str_to_move("end production") == END_PRODUCTION
    s = assistant_position({0: 7}, ["m2", "office_wood1"], {"A1": (0, 1)})
    assert s.str_to_move("move A1 slot0") == MOVE | 0 << 5 | 0 << 8
    assert s.str_to_move("keep A1") == MOVE | 0 << 5 | 15 << 8
    do(s, "keep A1")
    assert s.str_to_move("worker slot0 exact") == WORKER | 0 << 5 | 1 << 9
    assert s.str_to_move("worker slot0 short") == WORKER | 0 << 5
    do(s, "worker slot0 short")
    assert s.str_to_move("aside br1") == ASIDE | cid(g, "br1") << 5
    assert s.str_to_move("aside none") == ASIDE | 127 << 5
    s = worker_on_slot1({"stone": 2, "clay": 2}, ["br3"], ["br1", "br2", "br4"], {0: 2})
    do(s, "produce slot1")
    assert s.is_chance() and all(mtype(m) == DRAW for m, _ in s.chance_outcomes())
    draw_goods(s, 2)
    assert s.str_to_move("chain slot1 slot0 br2") == CHAIN | 1 << 5 | 100 << 9 | cid(g, "br2") << 16
    do(s, "chain slot1 slot0 br2")
    assert all(mtype(m) == TAKE and s.move_to_str(m) == f"take {g.data.cards[m >> 5].id}"
               for m, _ in s.chance_outcomes())
    s = build_position({0: 9}, ["m2", "s3"], ["sh2", "br1"], "sh2", display=["A1", "A2", "A3", "A5"])
    assert s.str_to_move("hire A5 slot2") == HIRE | 4 << 5 | 2 << 8
    assert s.str_to_move("pass") == PASS
    s = build_position({0: 0, 1: 3, 2: 1}, ["i5", "m5"], ["w3", "br1"], "w3")
    assert s.str_to_move("build") == BUILD_M
    do(s, "build")
    assert s.str_to_move("pay 3") == pay_id(3)
    s = t21_position({0: ["br1", "br2", "br3", "br4", "br5"], 1: ["m1", "m2"], 2: ["s1"]}, ["ca1"])
    do(s, "draw ca1")
    assert s.str_to_move("halve br2") == HALVE | cid(g, "br2") << 5
    s = scenario(charburners=["charburner_grain", "charburner_wool"], hands={0: ["br1", "we1", "ca1"], 1: []},
                 built={0: ["g1", "office_clay1"]})
    to_production(s, {"grain": 2, "wood": 2, "clay": 2, "wool": 2}, {0: ["worker slot1 exact", "aside none"]})
    do(s, "produce slot1")
    assert s.str_to_move("supply br1") == SUPPLY | cid(g, "br1") << 5
    s = t23_position()
    assert s.str_to_move("end chains") == END_CHAINS
    assert s.str_to_move("chain slot1 slot0 slot2") == CHAIN | 1 << 5 | 100 << 9 | 102 << 16
    assert s.str_to_move("chain slot2 b3") == CHAIN | 2 << 5 | cid(g, "b3") << 9 | 127 << 16
