"""Tests of the pure-Python Coal Baron reference (python/eurosearch/reference/coal_baron.py).

Worked examples follow shared/rules/coal_baron.md section 10 (T1, T3-T6, T8, T12-T20) on the
bundled data. A position is a real state after setup (start player 0, seat 0 to place), edited
field by field, then played with the contract's move ids (docs/coal_baron_engine.md).
"""

from __future__ import annotations

import math
import random

import pytest

from eurosearch.games import coal_baron_data
from eurosearch.games.coal_baron import CoalBaronOptions
from eurosearch.reference.coal_baron import (
    BANK, CAGE, CARD_DECK, KEEP_NONE, N_OVER, N_PLACE, N_SHORTAGE, STOP_MOVE, STORAGE, TILE,
    TILE_DECK, CoalBaronRefState, CoalBaronReference, cage_move, dest_move, keep_move, load_move,
    move_type, pair_move, place_move, put_move, random_playout, return_move, shortage_move,
    tile_outcome,
)

D = coal_baron_data.load()
Y, B, G, K = range(4)


def card(cid: str) -> int:
    return D.card_index(cid)


def tile(tid: str) -> int:
    return D.tile_index(tid)


def space(sid: str) -> int:
    return D.space_index(sid)


def new_state(players: int = 3, **options) -> CoalBaronRefState:
    return CoalBaronReference(D, players, CoalBaronOptions(**options)).initial_state()


def position(players: int = 3, seed: int = 1, **options) -> CoalBaronRefState:
    """After setup with start player 0: seat 0 to place; every drafted order back in the deck."""
    s = new_state(players, start_player=0, **options)
    rng = random.Random(seed)
    while s.node != N_PLACE:
        if s.is_chance():
            s.apply_sampled(s.sample_chance(rng))
        else:
            s.apply(s.legal_moves()[0])
    assert s.current_player() == 0 and s.shift == 1
    for pl in s.players:
        for c in pl.outstanding:
            s.decks[CARD_DECK].unknown[c] += 1
        pl.outstanding, pl.filled, pl.oncard = [], {}, {}
    return edited(s)


def edited(s: CoalBaronRefState) -> CoalBaronRefState:
    s._clear_cache()          # legal moves are cached per node
    return s


def take(s: CoalBaronRefState, cid: str) -> int:
    """Remove a card from the order deck or the display (where setup left it)."""
    c = card(cid)
    deck = s.decks[CARD_DECK]
    if deck.unknown[c]:
        deck.unknown[c] = 0
    else:
        slot = next(i for i, x in s.display.items() if x == c)
        s.display[slot] = None
    return c


def give(s: CoalBaronRefState, p: int, cid: str, filled: str = "") -> int:
    """An outstanding order of p, `filled` spaces holding proper cubes from the supply."""
    c = take(s, cid)
    s._take_order(p, c)
    for ch in filled:
        x = "YBGK".index(ch)
        s.coal[x] -= 1
        s.players[p].filled[c][x] += 1
        s.players[p].oncard[c][x] += 1
    edited(s)
    return c


def complete(s: CoalBaronRefState, p: int, cid: str) -> int:
    spaces = D.cards[card(cid)].spaces
    return give(s, p, cid, "".join("YBGK"[x] * spaces[x] for x in range(4)))


def deliver(s: CoalBaronRefState, p: int, *cids: str) -> None:
    for cid in cids:
        s.players[p].delivered.append(take(s, cid))
    edited(s)


def set_factory(s: CoalBaronRefState, slot: str, tid: str) -> None:
    """Show tile type `tid` on a slot (the old tile goes back into the stack)."""
    i, t = space(slot), tile(tid)
    deck = s.decks[TILE_DECK]
    if s.factory[i] is not None:
        deck.unknown[s.factory[i]] += 1
    assert deck.unknown[t] > 0
    deck.unknown[t] -= 1
    s.factory[i] = t
    edited(s)


def tile_top(s: CoalBaronRefState, *tids: str) -> None:
    deck = s.decks[TILE_DECK]
    for tid in tids:
        deck.unknown[tile(tid)] -= 1
        deck.top.append(tile(tid))
    edited(s)


def check_node(s: CoalBaronRefState) -> None:
    """Invariants that hold at every node (spec 8.8: conservation)."""
    n, d = s.ref.players, s.ref.data
    assert s.coal_total() == 4 * d.coal_per_colour and min(s.coal) >= 0
    places = [c for dk in [s.decks[CARD_DECK]] for c, u in enumerate(dk.unknown) for _ in range(u)]
    places += s.decks[CARD_DECK].top + s.decks[CARD_DECK].bottom + s.pool
    places += [c for c in s.display.values() if c is not None]
    places += s.buffer if s.buffer_kind == CARD_DECK else []
    places += s.returned if s.buffer_kind == CARD_DECK else []
    for pl in s.players:
        places += pl.outstanding + pl.delivered
    assert sorted(places) == list(range(len(d.cards)))
    tiles = len(s.decks[TILE_DECK]) + sum(t is not None for t in s.factory.values())
    tiles += len(s.buffer) + len(s.returned) if s.buffer_kind == TILE_DECK else 0
    tiles += sum(pl.light + pl.dark for pl in s.players)
    assert tiles == sum(t.copies for t in d.tiles)
    for p, pl in enumerate(s.players):
        on_spaces = sum(k for k, o in zip(s.count, s.owner) if o == p)
        assert 0 <= pl.supply and pl.supply + on_spaces <= d.workers[n]
        assert sum(pl.cage) <= d.cage_capacity and 0 <= pl.cage_level <= 4
        for lv in range(4):
            assert sum(pl.mine[lv]) <= pl.carts[lv]
        for c in pl.outstanding:
            assert all(f <= sp for f, sp in zip(pl.filled[c], D.cards[c].spaces))
    if s.is_terminal():
        assert s.legal_moves() == [] and s.chance_outcomes() == []
        assert math.isclose(sum(s.returns()), 1.0)
    elif s.is_chance():
        assert s.current_player() == -1 and s.legal_moves() == []
        outcomes = s.chance_outcomes()
        assert outcomes and len({o for o, _ in outcomes}) == len(outcomes)
        assert math.isclose(math.fsum(p for _, p in outcomes), 1.0, abs_tol=1e-12)
    else:
        moves = s.legal_moves()
        assert 0 <= s.current_player() < n
        assert len(moves) >= 2 and len(set(moves)) == len(moves)   # forced moves never shown
        assert s.returns() == [0.0] * n


# ---------------------------------------------------------------- T1, T2: workers and the Bank

def test_t1_displacement_costs_one_more_worker():
    s = position(3)
    s.count[space("$5")], s.owner[space("$5")] = 1, 1
    s.count[space("$6")], s.owner[space("$6")] = 2, 2
    edited(s)
    supply, money, p1 = s.players[0].supply, s.players[0].money, s.players[1].supply
    s.apply(place_move(space("$5")))
    assert s.players[0].supply == supply - 2 and s.players[0].money == money + 5
    assert s.players[1].supply == p1                       # displaced workers go to the Canteen
    assert (s.count[space("$5")], s.owner[space("$5")]) == (2, 0)


def test_t1_not_enough_workers_and_the_bank():
    s = position(3)
    s.count[space("$6")], s.owner[space("$6")] = 2, 0     # own workers cost the same
    s.players[0].supply = 2
    moves = set(edited(s).legal_moves())
    assert place_move(space("$6")) not in moves
    assert {place_move(space("$4")), place_move(space("$5")), place_move(BANK)} <= moves
    money = s.players[0].money
    s.apply(place_move(BANK))
    assert s.players[0].money == money + 1 and s.players[0].supply == 1


# ---------------------------------------------------------------- T3, T4, T18: the factory

def test_t3_buying_a_tunnel_tile():
    s = position(3)
    set_factory(s, "F3", "G2L")
    s.players[0].money = 5
    assert place_move(space("F3")) not in edited(s).legal_moves()
    s.players[0].money = 6
    edited(s).apply(place_move(space("F3")))
    pl = s.players[0]
    assert pl.money == 0 and pl.carts[G] == 3 and pl.mine[G][G] == 3 and pl.light == 1
    assert s.is_chance() and s.draw_dest == ("factory", space("F3"))   # refilled at turn end
    s.apply(tile_outcome(tile("Y1D")))
    assert s.factory[space("F3")] == tile("Y1D") and s.current_player() == 1


def test_t4_factory_draw_five_keep_and_return_to_the_bottom():
    s = position(3)
    tile_top(s, "K2D", "Y1L", "G1D", "B2L", "Y2D")
    s.players[0].money = 3
    length = len(s.decks[TILE_DECK])
    edited(s).apply(place_move(space("FD")))
    assert sorted(s.legal_moves()) == sorted(
        [keep_move(tile(t)) for t in ("Y1L", "G1D", "Y2D")] + [KEEP_NONE])
    s.apply(keep_move(tile("G1D")))
    pl = s.players[0]
    assert pl.money == 0 and pl.carts[G] == 2 and pl.mine[G][G] == 2 and pl.dark == 1
    s.apply(dest_move(bottom=True))
    for t in ("Y2D", "K2D", "B2L"):
        s.apply(return_move(tile(t)))           # the last one (Y1L) is forced
    deck = s.decks[TILE_DECK]
    assert len(deck) == length - 1 and deck.bottom[-4:] == [tile(t) for t in ("Y2D", "K2D", "B2L", "Y1L")]
    assert s.current_player() == 1 and not s.is_chance()    # no refill after a draw-5


def test_t4_keep_none_and_return_to_the_top():
    s = position(3)
    tile_top(s, "K2D", "Y1L", "G1D", "B2L", "Y2D")
    s.apply(place_move(space("FD")))
    money = s.players[0].money
    s.apply(KEEP_NONE)
    s.apply(dest_move(bottom=False))
    order = ["B2L", "K2D", "Y2D", "G1D"]
    for t in order:
        s.apply(return_move(tile(t)))
    assert s.decks[TILE_DECK].top == [tile(t) for t in order + ["Y1L"]]
    assert s.players[0].money == money


def test_t18_an_exhausted_stack_leaves_slots_empty():
    s = position(3)
    deck = s.decks[TILE_DECK]
    deck.unknown = [0] * len(deck.unknown)      # the stack is empty (tiles leave the game)
    s.players[0].money = 20
    f2 = space("F2")
    t = s.factory[f2]
    assert place_move(space("FD")) not in edited(s).legal_moves()
    s.apply(place_move(f2))
    assert s.factory[f2] is None and s.players[0].carts[D.tiles[t].colour] > 1
    while s.current_player() != 0:
        s.apply(place_move(BANK))
    assert place_move(f2) not in s.legal_moves()                # CB-A22, though it holds workers


# ---------------------------------------------------------------- T5-T7: mining

def test_t5_mining_eight_steps():
    s = position(3)
    pl = s.players[0]
    pl.carts[G], pl.mine[G][G] = 3, 3
    s.coal[G] -= 2
    wb08 = give(s, 0, "WB08")
    s.apply(place_move(space("M8")))
    assert load_move(Y) not in s.legal_moves()                   # no loading at the surface
    for m in (cage_move(3), load_move(G), load_move(G), cage_move(1), load_move(Y), cage_move(0)):
        s.apply(m)
    assert put_move(CAGE, Y, wb08) not in s.legal_moves()        # wrong colour
    s.apply(put_move(CAGE, G, wb08))
    s.apply(put_move(CAGE, G, wb08))                             # the 8th step ends the action
    assert s.current_player() == 1 and s.steps_left == 0
    assert pl.cage == [1, 0, 0, 0] and pl.cage_level == 0
    assert pl.mine[G][G] == 1 and pl.mine[Y][Y] == 0
    assert s._complete(0, wb08)


def test_t6_pair_substitution_and_t7_cubes_stay_on_orders():
    s = position(3)
    pl = s.players[0]
    pl.cage = [1, 1, 0, 0]                  # 1 Y, 1 B taken from the printed minecarts
    pl.mine[Y][Y] = pl.mine[B][B] = 0
    pl.storage[Y], s.coal[Y] = 1, s.coal[Y] - 1
    wb05 = give(s, 0, "WB05")
    s.apply(place_move(space("M6")))
    s.steps_left = 2
    moves = set(edited(s).legal_moves())
    code = lambda src, x: src * 4 + x
    assert pair_move(code(CAGE, B), code(CAGE, Y), wb05, K) in moves
    assert pair_move(code(CAGE, B), code(STORAGE, Y), wb05, K) in moves      # mixed sources (CB-A4)
    assert put_move(CAGE, B, wb05) not in moves                              # no lone wrong cube
    s.steps_left = 1
    assert not any(move_type(m) == 6 for m in edited(s).legal_moves())       # PAIR needs 2 steps
    s.steps_left = 2
    edited(s).apply(pair_move(code(CAGE, B), code(CAGE, Y), wb05, K))
    assert s._complete(0, wb05) and pl.oncard[wb05] == [1, 1, 0, 0] and s.current_player() == 1
    # T7: no move takes a cube off an order; it leaves only by delivery, back to the supply.
    supply = s.coal[:]
    s.apply(place_move(BANK))
    s.apply(place_move(BANK))
    assert s.current_player() == 0 and s.players[0].oncard[wb05] == [1, 1, 0, 0]
    s.apply(place_move(space("DWB")))
    assert s.coal[Y] == supply[Y] + 1 and s.coal[B] == supply[B] + 1 and wb05 in pl.delivered


# ---------------------------------------------------------------- T8: delivery

def test_t8_delivery_of_every_complete_order_of_the_vehicle():
    s = position(3)
    supply = s.coal[:]
    complete(s, 0, "HC09")
    complete(s, 0, "HC10")
    hc06 = give(s, 0, "HC06")
    moves = s.legal_moves()
    assert place_move(space("DHC")) in moves and place_move(space("DTR")) not in moves
    s.apply(place_move(space("DHC")))
    pl = s.players[0]
    assert pl.vp == 19 and s.coal == supply and pl.outstanding == [hc06]
    assert sorted(pl.delivered) == [card("HC09"), card("HC10")]
    assert s.scores()[0] == 19.0


# ---------------------------------------------------------------- T12, T13: shift scoring

def t12(players: int = 3, **options) -> CoalBaronRefState:
    s = position(players, **options)
    deliver(s, 0, "WB07", "HC01")                  # Gábor
    if players == 3:
        deliver(s, 1, "WB10", "HC03")              # Évi
    deliver(s, players - 1, "WB08", "HC09", "HC10")   # Móni
    return s


def shift_vp(s: CoalBaronRefState, elements: range) -> list[int]:
    totals = [0] * s.ref.players
    for e in elements:
        for p, vp in enumerate(s.element_awards(e)):
            totals[p] += vp
    return totals


def test_t12_shift_scoring_elements_1_to_8():
    s = t12()
    assert shift_vp(s, range(8)) == [14, 14, 19]
    assert shift_vp(s, range(4)) == [5, 5, 12]
    assert shift_vp(t12(players=2), range(8)) == [11, 18]   # never a 2nd place at 2 players


def test_truck_and_locomotive_second_place_cb_a1():
    for option, second in ((None, 3), (4, 4)):
        s = position(3, second_tr_lo=option)
        deliver(s, 0, "TR10")
        deliver(s, 1, "TR01")
        deliver(s, 2, "LO05")
        assert s.element_awards(6) == [8, second, 0]


def t13(evi_delivers: bool = True, **options) -> CoalBaronRefState:
    s = position(3, **options)
    empty = {0: (2, 0, 1, 4), 1: (1, 0, 3, 0), 2: (0, 0, 3, 4)}    # Gábor, Évi, Móni
    for p, counts in empty.items():
        for lv, k in enumerate(counts):
            s.players[p].carts[lv] += k
        if p != 1 or evi_delivers:
            deliver(s, p, ["WB01", "WB02", "WB04"][p])
    return s


def test_t13_empty_minecarts_elements_9_to_12_cb_a15():
    assert shift_vp(t13(), range(8, 12)) == [23, 17, 25]


def test_t13_no_delivered_order_no_shift_scoring_cb_a2():
    assert shift_vp(t13(evi_delivers=False), range(8, 12)) == [29, 0, 25]
    # Reading (b): count >= 1 is enough.
    assert shift_vp(t13(evi_delivers=False, empty_carts_need_delivery=False), range(8, 12)) == [23, 17, 25]


def test_off_colour_cube_fills_a_minecart_cb_a15():
    s = position(3)
    deliver(s, 0, "WB01")
    pl = s.players[0]
    pl.carts[G] += 1
    assert s._element_counts(10)[0] == 1
    pl.mine[G][Y] += 1
    s.coal[Y] -= 1
    assert s._element_counts(10)[0] == 0


# ---------------------------------------------------------------- T14: next start player

@pytest.mark.parametrize("workers, expected", [
    ((3, 1, 3, 3), 2), ((0, 2, 0, 2), 1), ((4, 1, 0, 2), 0), ((0, 0, 0, 0), 1),
])
def test_t14_next_start_player_cb_a10(workers, expected):
    s = position(4)
    slots = [space(f) for f in ("F1", "F2", "F3", "FD")]
    for p, k in enumerate(workers):
        if k:
            s.count[slots[p]], s.owner[slots[p]] = k, p
    assert s._next_start_player() == expected


def test_t14_rulebook_case_and_the_bank_does_not_count():
    s = position(3)                              # Gábor 0, Évi 1, Móni 2
    s.count[space("F1")], s.owner[space("F1")] = 5, 2
    s.count[space("FD")], s.owner[space("FD")] = 4, 1
    s.count[space("F2")], s.owner[space("F2")] = 2, 0
    s.count[space("M10")], s.owner[space("M10")] = 9, 0
    assert s._next_start_player() == 2


# ---------------------------------------------------------------- T15, T16: the end

def test_t15_final_scoring():
    s = position(2)
    pl = s.players[0]
    pl.money = 7
    pl.mine = [[0] * 4 for _ in range(4)]
    pl.mine[K][K] = 1
    pl.cage, pl.storage = [1, 0, 0, 0], [0, 1, 0, 0]
    give(s, 0, "LO11", "G")
    pl.light, pl.dark = 7, 4
    assert pl.cubes() == 4
    s._final_scoring()
    assert pl.vp == -5 and pl.money == 2


@pytest.mark.parametrize("money_a, returns", [(13, [1.0, 0.0]), (12, [0.5, 0.5])])
def test_t16_final_tie_break_on_marks_left(money_a, returns):
    s = position(2)
    for p, (vp, money) in enumerate([(47, money_a), (48, 7)]):
        pl = s.players[p]
        pl.vp, pl.money = vp, money
        pl.mine = [[0] * 4 for _ in range(4)]
    s._final_scoring()
    s.node = N_OVER
    assert s.scores() == [49.0, 49.0] and s.returns() == returns


# ---------------------------------------------------------------- T17: coal shortage

def test_t17_coal_shortage_cb_a6():
    s = position(3)
    set_factory(s, "F1", "G2D")
    s.coal = [3, 0, 1, 0]
    s.players[0].money = 6
    s.apply(edited(s) and place_move(space("F1")))            # the only colour left (Y) is forced
    pl = s.players[0]
    assert pl.money == 0 and pl.mine[G][G] == 2 and pl.mine[G][Y] == 1 and s.coal == [2, 0, 0, 0]
    assert s.is_chance()                         # the refill follows the shortage


def test_t17_shortage_choice_and_an_empty_supply():
    s = position(3)
    set_factory(s, "F1", "K2L")
    s.coal = [1, 1, 0, 0]
    s.players[0].money = 8
    edited(s).apply(place_move(space("F1")))
    assert s.node == N_SHORTAGE and sorted(s.legal_moves()) == [shortage_move(Y), shortage_move(B)]
    s.apply(shortage_move(B))
    s.apply(s.chance_outcomes()[0][0])
    assert s.players[0].mine[K] == [1, 1, 0, 1] and s.coal == [0, 0, 0, 0]  # then Y is forced
    # An empty supply: the minecarts stay empty.
    set_factory(s, "F2", "Y2D")
    s.players[1].money = 2
    edited(s).apply(place_move(space("F2")))
    assert s.players[1].carts[Y] == 3 and s.players[1].mine[Y] == [1, 0, 0, 0]


def test_mining_loads_an_off_colour_cube():
    s = position(3)
    pl = s.players[0]
    pl.mine[G] = [1, 0, 1, 0]
    pl.carts[G] = 2
    s.coal[Y] -= 1
    edited(s).apply(place_move(space("M6")))
    s.apply(cage_move(3))
    assert {load_move(Y), load_move(G)} <= set(s.legal_moves())


# ---------------------------------------------------------------- T19, T20: setup and turns

@pytest.mark.parametrize("players, workers, money, display, deck, stack, coal", [
    (2, 18, 10, 3, 35, 42, 14), (3, 15, 9, 4, 31, 41, 13), (4, 13, 8, 4, 28, 40, 12),
])
def test_t19_setup_counts(players, workers, money, display, deck, stack, coal):
    s = new_state(players)
    rng = random.Random(players)
    while s.node != N_PLACE:
        s.apply_sampled(s.sample_chance(rng)) if s.is_chance() else s.apply(s.legal_moves()[-1])
    assert all(pl.supply == workers and pl.money == money and len(pl.outstanding) == 3
               for pl in s.players)
    assert sum(c is not None for c in s.display.values()) == display
    assert len(s.decks[CARD_DECK]) == deck and len(s.decks[TILE_DECK]) == stack
    assert sum(t is not None for t in s.factory.values()) == 48 - stack
    assert s.coal == [coal] * 4 and s.current_player() == s.start_player


def test_draft_order_and_first_chance_nodes():
    s = new_state(4, start_player=0)
    assert s.is_chance() and s.chance_outcomes() == [(TILE | (t << 5), 3 / 48) for t in range(16)]
    rng = random.Random(3)
    pickers = []
    while s.node != N_PLACE:
        if s.is_chance():
            s.apply_sampled(s.sample_chance(rng))
        else:
            pickers.append(s.current_player())
            s.apply(s.legal_moves()[0])
    assert pickers == [3, 2, 1, 0] * 3                        # CB-A14
    assert s.display[D.leftover_slot] is not None
    s = new_state(3)
    while not s.node == "start":
        s.apply_sampled(s.sample_chance(rng))
    assert s.chance_outcomes() == [(16 | (p << 5), 1 / 3) for p in range(3)]   # CB-A20


def test_t20_players_without_workers_are_skipped():
    s = position(2)
    s.players[0].supply, s.players[1].supply = 1, 3
    edited(s).apply(place_move(BANK))
    seen = []
    while s.shift == 1:
        seen.append(s.current_player())
        s.apply(place_move(BANK))
    assert seen == [1, 1, 1] and s.shift == 2
    assert [pl.supply for pl in s.players] == [18, 18] and s.count == [0] * 26


# ---------------------------------------------------------------- whole games

@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_random_games_keep_every_invariant(players, seed):
    s = new_state(players)
    rng = random.Random(seed)
    while True:
        check_node(s)
        if s.is_terminal():
            break
        if s.is_chance():
            s.apply_sampled(s.sample_chance(rng))
        else:
            moves = s.legal_moves()
            before = s.snapshot()
            with pytest.raises(ValueError):
                s.apply(31)
            assert s.snapshot() == before                # an illegal move changes nothing
            copy = s.clone()
            s.apply(rng.choice(moves))
            assert copy.snapshot() == before             # clones are independent
    assert s.shift == 3


def test_random_playout_returns_sane_scores():
    ref = CoalBaronReference(D, 3)
    scores, decisions = random_playout(ref, random.Random(5))
    assert len(scores) == 3 and all(isinstance(x, float) and -200 < x < 500 for x in scores)
    assert decisions > 100
    assert random_playout(ref, random.Random(5)) == (scores, decisions)   # deterministic per seed


def test_stop_is_always_legal_while_mining():
    s = position(3)
    s.apply(place_move(space("M10")))
    assert STOP_MOVE in s.legal_moves()
    s.apply(STOP_MOVE)
    assert s.current_player() == 1
