"""Coal Baron rules: every worked example T1..T20 of ../shared/rules/coal_baron.md section 10,
and every ambiguity resolution CB-A1..CB-A23 of its section 9 (named in the test that pins it).

Positions are built by editing a real state's JSON (the C core validates every edit: coal,
cards, tiles and workers stay conserved) and played with text moves (docs/coal_baron_engine.md,
"Text").
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eurosearch as es
from eurosearch.games import coal_baron_data

D = coal_baron_data.load()
CARD = {c.id: c.index for c in D.cards}
TILE = {t.id: t.index for t in D.tiles}
SPACE = {s.id: s.index for s in D.spaces}
COL = "YBGK"


def field(s, name):
    return json.loads(s.to_json(format=1))["state"][name]


def texts(s) -> set[str]:
    return {s.move_to_str(m) for m in s.legal_moves()}


def outcomes(s) -> dict[str, float]:
    return {s.move_to_str(m): p for m, p in s.chance_outcomes()}


def play(s, *moves: str) -> None:
    for text in moves:
        s.apply(s.str_to_move(text))


def to_decision(s, rng: random.Random) -> None:
    while s.is_chance():
        s.apply(s.sample_chance(rng.getrandbits(64)))


class Pos:
    """A position under construction: a state after setup (P0 to place, start player 0) with
    every drafted order back in the deck, edited field by field."""

    def __init__(self, players: int = 3, seed: int = 1, options: dict | None = None):
        self.g = es.game("coal_baron", players=players, options={"start_player": 0, **(options or {})})
        self.n = players
        s = self.g.new_state(seed=seed)
        rng = random.Random(seed)
        while s.current_player != 0 or field(s, "phase") != 6:   # PLACE
            if s.is_chance():
                s.apply(s.sample_chance(rng.getrandbits(64)))
            else:
                s.apply(s.legal_moves()[0])
        self.doc = json.loads(s.to_json(format=1))
        self.st = self.doc["state"]
        for p in range(players):
            for c in self._bits(self.st["outstanding"][p]):
                self._to_deck(c)
            self.st["outstanding"][p] = 0

    @staticmethod
    def _bits(x: int) -> list[int]:
        return [c for c in range(64) if (x >> c) & 1]

    def _to_deck(self, c: int) -> None:
        self.st["orders.unknown"][c] = 1
        self.st["orders.unknown_n"] += 1

    # --- cards
    def take_card(self, cid: str) -> int:
        """Remove a card from wherever it is (deck, display, a player's orders)."""
        st, c = self.st, CARD[cid]
        if st["orders.unknown"][c]:
            st["orders.unknown"][c] = 0
            st["orders.unknown_n"] -= 1
        elif c in st["display"]:
            st["display"][st["display"].index(c)] = 255
        else:
            for key in ("outstanding", "delivered"):
                for p in range(self.n):
                    if (st[key][p] >> c) & 1:
                        assert not any(st["filled"][c]), "take a card without cubes"
                        st[key][p] &= ~(1 << c)
                        return c
            raise AssertionError(f"card {cid} not found")
        return c

    def give(self, p: int, cid: str, filled: str = "", pairs: tuple = ()) -> None:
        """An outstanding order of p; `filled` colours filled by one proper cube each, `pairs`
        (demanded colour, two cube colours) filled by a substitution."""
        c = self.take_card(cid)
        self.st["outstanding"][p] |= 1 << c
        for k in filled:
            self._cube_from_supply(k)
            self.st["filled"][c][COL.index(k)] += 1
            self.st["oncard"][c][COL.index(k)] += 1
        for demanded, cubes in pairs:
            self.st["filled"][c][COL.index(demanded)] += 1
            for k in cubes:
                self._cube_from_supply(k)
                self.st["oncard"][c][COL.index(k)] += 1

    def complete(self, p: int, cid: str) -> None:
        card = D.cards[CARD[cid]]
        self.give(p, cid, filled="".join(COL[k] * card.spaces[k] for k in range(4)))

    def delivered(self, p: int, *cids: str) -> None:
        for cid in cids:
            self.st["delivered"][p] |= 1 << self.take_card(cid)

    def display(self, slot: int, cid: str) -> None:
        """Order display slot O1..O4 (0..3) shows card cid; its card goes back to the deck."""
        old = self.st["display"][slot]
        c = self.take_card(cid)
        if old != 255:
            self._to_deck(old)
        self.st["display"][slot] = c

    def order_deck_only(self, keep: int) -> None:
        """Leave `keep` cards in the deck; move the rest to player 1's delivered pile."""
        cards = [c for c in range(44) if self.st["orders.unknown"][c]]
        for c in cards[keep:]:
            self.st["orders.unknown"][c] = 0
            self.st["orders.unknown_n"] -= 1
            self.st["delivered"][1 % self.n] |= 1 << c

    # --- coal
    def _cube_from_supply(self, k: str) -> None:
        i = COL.index(k)
        assert self.st["coal"][i] > 0, f"no {k} cube left in the supply"
        self.st["coal"][i] -= 1

    def _cubes_to_supply(self, counts: list[int]) -> None:
        for i in range(4):
            self.st["coal"][i] += counts[i]
            counts[i] = 0

    def cage(self, p: int, level: int, cubes: str = "") -> None:
        self._cubes_to_supply(self.st["cage"][p])
        self.st["cage_level"][p] = level
        for k in cubes:
            self._cube_from_supply(k)
            self.st["cage"][p][COL.index(k)] += 1

    def storage(self, p: int, cubes: str) -> None:
        self._cubes_to_supply(self.st["storage"][p])
        for k in cubes:
            self._cube_from_supply(k)
            self.st["storage"][p][COL.index(k)] += 1

    def mine(self, p: int, level: int, cubes: str) -> None:
        """The cubes in the minecarts of level 1..4 (replacing what is there)."""
        row = self.st["mine"][p]
        cur = row[(level - 1) * 4:(level - 1) * 4 + 4]
        for i in range(4):
            self.st["coal"][i] += cur[i]
            row[(level - 1) * 4 + i] = 0
        for k in cubes:
            self._cube_from_supply(k)
            row[(level - 1) * 4 + COL.index(k)] += 1

    def supply_coal(self, counts: str, dump: int) -> None:
        """Leave exactly these cubes in the general supply (e.g. "G YYY"); the rest go to the
        storage of player `dump`."""
        want = [counts.count(k) for k in COL]
        for i in range(4):
            extra = self.st["coal"][i] - want[i]
            assert extra >= 0
            self.st["coal"][i] -= extra
            self.st["storage"][dump][i] += extra

    # --- tiles
    def _tile_from_stack(self, t: int) -> None:
        st = self.st
        if st["tiles.unknown"][t]:
            st["tiles.unknown"][t] -= 1
            st["tiles.unknown_n"] -= 1
        else:
            slot = st["factory"].index(t)
            st["factory"][slot] = self._any_unknown_tile(exclude=t)

    def _any_unknown_tile(self, exclude: int) -> int:
        for u in range(16):
            if u != exclude and self.st["tiles.unknown"][u]:
                self.st["tiles.unknown"][u] -= 1
                self.st["tiles.unknown_n"] -= 1
                return u
        raise AssertionError("no tile left")

    def add_tile(self, p: int, tid: str, cubes: str = "") -> None:
        """Player p owns a tile of type tid (its minecarts hold `cubes`, added to the level)."""
        t = TILE[tid]
        tt = D.tiles[t]
        self._tile_from_stack(t)
        st = self.st
        st["owned"][p][t] += 1
        st["carts"][p][tt.colour] += tt.carts
        st["light" if tt.side == 0 else "dark"][p] += 1
        for k in cubes:
            self._cube_from_supply(k)
            st["mine"][p][tt.colour * 4 + COL.index(k)] += 1

    def factory(self, slot: int, tid: str) -> None:
        """Factory slot F1..F8 (0..7) shows tile tid; its tile goes back to the stack."""
        st, t = self.st, TILE[tid]
        old = st["factory"][slot]
        if old != 255:
            st["tiles.unknown"][old] += 1
            st["tiles.unknown_n"] += 1
        st["factory"][slot] = 255
        self._tile_from_stack(t)
        st["factory"][slot] = t

    def neutral_factory(self) -> None:
        """A known factory display without the tiles the draw-5 tests draw."""
        st = self.st
        for i, t in enumerate(st["factory"]):
            if t != 255:
                st["tiles.unknown"][t] += 1
                st["tiles.unknown_n"] += 1
                st["factory"][i] = 255
        kinds = iter(("Y1D", "B1D", "Y1D", "B1D", "Y1D", "B1D", "G2D", "B2D"))
        for i in range(8):
            if D.spaces[i].open(self.n):
                self.factory(i, next(kinds))

    def empty_tile_stack(self, p: int) -> None:
        """Every tile left in the stack goes to player p's mine (empty minecarts)."""
        for t in range(16):
            while self.st["tiles.unknown"][t]:
                self.add_tile(p, D.tiles[t].id)

    # --- workers, money, flow
    def workers(self, space: str, p: int, k: int) -> None:
        sp = SPACE[space]
        st = self.st
        assert st["count"][sp] == 0
        st["supply"][p] -= k
        st["count"][sp] = k
        st["owner"][sp] = p
        assert st["supply"][p] >= 0

    def supply(self, p: int, k: int) -> None:
        """Player p keeps k workers in supply; the others go to the Bank."""
        st = self.st
        st["bank"][p] += st["supply"][p] - k
        st["supply"][p] = k
        assert st["bank"][p] >= 0

    def money(self, p: int, m: int) -> None:
        self.st["money"][p] = m

    def to_move(self, p: int) -> None:
        self.st["actor"] = self.st["turn"] = p

    def state(self):
        return self.g.state_from_json(json.dumps(self.doc))


def end_shift(pos: Pos, shift: int):
    """Everyone else has placed every worker; P0 places its last one on the Bank."""
    pos.st["shift"] = shift
    for p in range(pos.n):
        pos.supply(p, 1 if p == 0 else 0)
    s = pos.state()
    play(s, "place bank")
    return s


# ----------------------------------------------------------------------------- T1, T2


def test_t1_worker_cost_and_displacement():
    """T1 (spec 4.3): k workers on a space cost k+1; the k go to the Canteen."""
    pos = Pos(players=3)
    pos.workers("$5", 1, 1)
    pos.workers("$6", 2, 2)
    s = pos.state()
    assert {"place $4", "place $5", "place $6"} <= texts(s)
    a = s.clone()
    play(a, "place $4")
    assert field(a, "supply")[0] == 14 and field(a, "money")[0] == 9 + 4
    b = s.clone()
    play(b, "place $5")
    assert field(b, "supply")[0] == 13 and field(b, "money")[0] == 9 + 5
    assert field(b, "canteen")[1] == 1 and field(b, "supply")[1] == 14   # red's supply unchanged
    assert field(b, "count")[SPACE["$5"]] == 2 and field(b, "owner")[SPACE["$5"]] == 0
    c = s.clone()
    play(c, "place $6")
    assert field(c, "supply")[0] == 12 and field(c, "money")[0] == 9 + 6 and field(c, "canteen")[2] == 2


def test_t1_not_enough_workers_and_own_displacement():
    """T1 cases d and e."""
    pos = Pos(players=4)
    pos.workers("$5", 1, 1)
    pos.workers("$6", 2, 2)
    pos.supply(0, 2)
    s = pos.state()
    assert "place $6" not in texts(s) and {"place $4", "place $5"} <= texts(s)
    pos = Pos(players=4)
    pos.workers("$6", 0, 2)
    s = pos.state()
    play(s, "place $6")
    assert field(s, "supply")[0] == 13 - 2 - 3 and field(s, "canteen")[0] == 2
    assert field(s, "count")[SPACE["$6"]] == 3


def test_t2_bank_always_legal_one_worker_one_mark():
    """T2 (spec 4.4): the Bank takes exactly one worker, is never displaced, +1 Mark."""
    pos = Pos(players=3)
    pos.st["bank"][1] += 5
    pos.st["supply"][1] -= 5
    s = pos.state()
    assert "place bank" in texts(s) and len(texts(s)) > 5
    play(s, "place bank")
    assert field(s, "supply")[0] == 14 and field(s, "money")[0] == 10 and field(s, "bank") == [1, 5, 0, 0]
    assert s.current_player == 1


def test_only_the_bank_left_is_played_automatically():
    """Forced decisions are never presented (contract): a player whose only legal move is the
    Bank places there without a decision node."""
    pos = Pos(players=2)
    for sp in ("F1", "F2", "F3", "F5", "F6", "F7", "FD", "M6", "M10", "$4", "$6", "O2", "O3", "O4", "OD"):
        pos.workers(sp, 0, 1)
    pos.supply(1, 1)
    s = pos.state()
    assert field(s, "supply")[:2] == [3, 1]
    play(s, "place bank")
    # P1's only move (every space needs 2 workers) was the Bank: applied without a node
    assert s.current_player == 0 and field(s, "supply")[:2] == [2, 0] and field(s, "bank")[1] == 18


# ----------------------------------------------------------------------------- T3, T4 (factory)


def test_t3_buying_a_tunnel_tile():
    """T3 (spec 4.5): pay carts x price, a cube on each minecart, the tile on its level and
    side, the slot refilled at the end of the turn from the stack (a chance node)."""
    pos = Pos(players=3)
    pos.factory(2, "G2L")
    pos.money(0, 6)
    s = pos.state()
    assert "place F3" in texts(s)
    coal = field(s, "coal")
    play(s, "place F3")
    assert field(s, "money")[0] == 0
    assert field(s, "carts")[0][2] == 3 and field(s, "mine")[0][2 * 4 + 2] == 3 and field(s, "light")[0] == 1
    assert field(s, "coal")[2] == coal[2] - 2
    assert s.is_chance()
    unknown = field(s, "tiles.unknown")
    total = field(s, "tiles.unknown_n")
    assert outcomes(s) == {f"tile {t.id}": unknown[t.index] / total for t in D.tiles if unknown[t.index]}
    first = s.chance_outcomes()[0][0]
    s.apply(first)
    assert field(s, "factory")[2] == (first >> 5) and s.current_player == 1
    poorer = Pos(players=3)
    poorer.factory(2, "G2L")
    poorer.money(0, 5)
    assert "place F3" not in texts(poorer.state())


def _draw_five(s, tiles):
    for t in tiles:
        assert s.is_chance()
        play(s, f"tile {t}")


def test_t4_factory_draw_five_keep_one_return_to_bottom_cb_a19():
    """T4 (spec 4.5) and CB-A19: keep an affordable tile, return the others to the bottom in
    the chosen future draw order (the last listed at the very bottom)."""
    pos = Pos(players=3)
    pos.neutral_factory()
    pos.money(0, 3)
    s = pos.state()
    length = field(s, "tiles.unknown_n")
    play(s, "place FD")
    _draw_five(s, ("K2D", "Y1L", "G1D", "B2L", "Y2D"))
    assert texts(s) == {"keep Y1L", "keep G1D", "keep Y2D", "keep none"}
    play(s, "keep G1D")
    assert field(s, "money")[0] == 0 and field(s, "carts")[0][2] == 2 and field(s, "dark")[0] == 1
    assert texts(s) == {"dest top", "dest bottom"}
    play(s, "dest bottom")
    assert texts(s) == {"return Y2D", "return K2D", "return B2L", "return Y1L"}
    play(s, "return Y2D", "return K2D", "return B2L")          # Y1L is forced, last
    assert s.current_player == 1
    assert field(s, "tiles.bot")[:4] == [TILE[t] for t in ("Y2D", "K2D", "B2L", "Y1L")]
    assert field(s, "tiles.bot_seen")[:4] == [1, 1, 1, 1]    # known to P0 only
    assert field(s, "tiles.unknown_n") + field(s, "tiles.bot_n") == length - 1
    assert field(s, "factory") == [TILE[t] for t in ("Y1D", "B1D", "Y1D", "B1D", "Y1D", "B1D", "G2D")] + [255]


def test_t4_keep_none_and_return_to_top_is_a_complete_action_cb_a19():
    """T4 alternative: keep nothing, return all five to the top; the first listed is drawn
    first, without a chance node (CB-A19)."""
    pos = Pos(players=3)
    pos.neutral_factory()
    pos.money(0, 3)
    pos.money(1, 20)
    s = pos.state()
    play(s, "place FD")
    _draw_five(s, ("K2D", "Y1L", "G1D", "B2L", "Y2D"))
    play(s, "keep none", "dest top", "return B2L", "return K2D", "return Y1L", "return G1D")
    assert field(s, "money")[0] == 3 and field(s, "tiles.top_n") == 5
    # P1 buys the tile on F1: the refill is B2L, the first returned tile, with no chance node
    play(s, "place F1")
    assert not s.is_chance() and field(s, "factory")[0] == TILE["B2L"]
    assert field(s, "tiles.top_n") == 4


def test_draw_five_with_nothing_affordable_keeps_none_automatically():
    pos = Pos(players=3)
    pos.neutral_factory()
    pos.money(0, 0)
    s = pos.state()
    play(s, "place FD")
    _draw_five(s, ("K2D", "K2L", "G2D", "B2L", "Y1L"))   # Y1L costs 1
    assert not s.is_chance() and texts(s) == {"dest top", "dest bottom"}


# ----------------------------------------------------------------------------- T5-T7 (mining)


def mining_position(players=3, **kw):
    pos = Pos(players=players, **kw)
    pos.add_tile(0, "G2L", cubes="GG")        # level 3: printed + 2 = 3 grey minecarts, filled
    pos.give(0, "WB08")                        # 7 VP, G G
    return pos


def test_t5_mining_eight_steps():
    """T5 (spec 4.6): cage down in one step, load, up past levels in one step, unload onto an
    order at the surface; 8 steps and the action ends."""
    s = mining_position().state()
    play(s, "place M8")
    assert "load G" not in texts(s)                            # the cage is at the surface
    play(s, "cage 3", "load G", "load G", "cage 1", "load Y", "cage 0")
    assert "put cage Y WB08" not in texts(s)                   # wrong colour (step 7)
    play(s, "put cage G WB08", "put cage G WB08")
    assert s.current_player == 1                               # no 9th step
    assert field(s, "cage")[0] == [1, 0, 0, 0] and field(s, "cage_level")[0] == 0
    mine = field(s, "mine")[0]
    assert mine[2 * 4 + 2] == 1 and mine[0] == 0
    assert field(s, "filled")[CARD["WB08"]] == [0, 0, 2, 0]


def test_t6_pair_substitution_cb_a4():
    """T6, CB-A4: two cubes of any colours fill one space for 2 steps, in one move; not with 1
    step left; sources may be mixed (cage + storage)."""
    pos = Pos(players=3)
    pos.cage(0, 0, "BY")
    pos.give(0, "WB05")                        # 5 VP, K
    s = pos.state()
    play(s, "place M6", "cage 1", "cage 2", "cage 3", "cage 0")   # 2 steps left, at the surface
    assert "pair cage:Y+cage:B WB05:K" in texts(s)
    assert not any(t.startswith("put") for t in texts(s))       # a lone wrong colour never
    one = s.clone()
    play(one, "pair cage:Y+cage:B WB05:K")
    assert field(one, "filled")[CARD["WB05"]] == [0, 0, 0, 1]
    assert field(one, "oncard")[CARD["WB05"]] == [1, 1, 0, 0]
    assert one.current_player == 1
    short = Pos(players=3)
    short.cage(0, 0, "BY")
    short.give(0, "WB05")
    short = short.state()
    play(short, "place M6", "cage 1", "cage 2", "cage 3", "cage 4", "cage 0")   # 1 step left
    assert field(short, "steps") == 1 and field(short, "cage_level")[0] == 0
    assert not any(t.startswith("pair") for t in texts(short))
    # mixed sources
    pos = Pos(players=3)
    pos.cage(0, 0, "B")
    pos.storage(0, "Y")
    pos.give(0, "WB05")
    s = pos.state()
    play(s, "place M6")
    assert "pair cage:B+storage:Y WB05:K" in texts(s)
    assert "pair cage:Y+storage:B WB05:K" not in texts(s)


def test_t6_substituted_space_counts_once_for_scoring_and_twice_for_coal():
    """T6: delivery returns both cubes; shift scoring counts one black space."""
    pos = Pos(players=3)
    pos.give(0, "WB05", pairs=(("K", "BY"),))
    coal = list(pos.st["coal"])
    s = pos.state()
    play(s, "place DWB")
    assert field(s, "vp")[0] == 5 and field(s, "coal") == [coal[0] + 1, coal[1] + 1, coal[2], coal[3]]
    assert field(s, "delivered")[0] == 1 << CARD["WB05"]
    pos = Pos(players=3)
    pos.delivered(0, "WB05")
    s = end_shift(pos, 1)
    assert field(s, "vp") == [5, 0, 0, 0]        # black, alone: 5 (no second place: zeros)


def test_t7_cubes_on_orders_never_move_cb_a5():
    """T7: no work step takes a cube off an order; CB-A5: storage -> order with the cage
    anywhere, cage -> storage whenever the cage is at the surface (no 'suitable order' test)."""
    pos = Pos(players=3)
    pos.give(0, "WB08", filled="G")
    pos.give(0, "HC05")                         # G, empty: a suitable order exists
    pos.cage(0, 0, "GG")
    pos.storage(0, "G")
    s = pos.state()
    play(s, "place M10")
    assert {"store G", "put storage G HC05", "put cage G HC05"} <= texts(s)
    play(s, "cage 4")
    assert "put storage G HC05" in texts(s) and "put cage G HC05" not in texts(s)
    for m in s.legal_moves():
        t = s.clone()
        t.apply(m)
        assert field(t, "oncard")[CARD["WB08"]][2] >= 1 and field(t, "filled")[CARD["WB08"]][2] >= 1


def test_cage_capacity_and_load_by_colour_cb_a17_cb_a21():
    """CB-A17: the cage holds 5 cubes; CB-A21: LOAD is by colour (which minecart does not
    matter), an off-colour cube on a level can be loaded as its own colour."""
    pos = Pos(players=3)
    pos.add_tile(0, "B2L", cubes="BY")
    pos.cage(0, 2, "YYYY")
    s = pos.state()
    play(s, "place M6")
    assert {"load B", "load Y"} <= texts(s) and sum(t.startswith("load") for t in texts(s)) == 2
    play(s, "load B")
    assert not any(t.startswith("load") for t in texts(s))      # 5 cubes: full


def test_mining_is_always_selectable_cb_a12():
    """CB-A12: a Mining space is legal with no useful step; moving the cage always is."""
    pos = Pos(players=3)
    for level in (1, 2, 3, 4):
        pos.mine(0, level, "")
    s = pos.state()
    assert {"place M6", "place M8", "place M10"} <= texts(s)
    play(s, "place M6")
    assert texts(s) == {"cage 1", "cage 2", "cage 3", "cage 4", "stop"}


# ----------------------------------------------------------------------------- T8-T11


def test_t8_delivery_all_complete_orders_of_the_vehicle_cb_a18():
    """T8, CB-A18: every complete order of that vehicle is delivered, incomplete ones stay."""
    pos = Pos(players=3)
    pos.complete(0, "HC09")
    pos.complete(0, "HC10")
    pos.give(0, "HC06")
    coal = list(pos.st["coal"])
    s = pos.state()
    assert "place DHC" in texts(s) and "place DTR" not in texts(s) and "place DWB" not in texts(s)
    play(s, "place DHC")
    assert field(s, "vp")[0] == 19
    assert field(s, "coal") == [coal[0] + 1, coal[1] + 1, coal[2] + 1, coal[3] + 3]
    assert field(s, "outstanding")[0] == 1 << CARD["HC06"]
    assert field(s, "delivered")[0] == (1 << CARD["HC09"]) | (1 << CARD["HC10"])
    pos = Pos(players=3)
    pos.give(0, "HC09", filled="K")
    assert "place DHC" not in texts(pos.state())


def test_t9_money():
    s = Pos(players=3).state()
    play(s, "place $5")
    assert field(s, "money")[0] == 9 + 5


def test_t10_new_order_from_a_display_slot():
    """T10: the card joins the outstanding orders; the slot is refilled from the deck (a chance
    node, 1/U per card), or stays empty with an empty deck."""
    pos = Pos(players=3)
    pos.display(1, "LO05")
    s = pos.state()
    play(s, "place O2")
    assert field(s, "outstanding")[0] == 1 << CARD["LO05"]
    u = field(s, "orders.unknown_n")
    oc = outcomes(s)
    assert len(oc) == u and set(oc.values()) == {1 / u}
    pos = Pos(players=3)
    pos.display(1, "LO05")
    pos.order_deck_only(0)
    s = pos.state()
    play(s, "place O2")
    assert not s.is_chance() and field(s, "display")[1] == 255 and s.current_player == 1
    assert "place O2" not in texts(s) and "place OD" not in texts(s)


def test_t11_order_draw_five_with_three_cards_left_cb_a7():
    """T11, CB-A7: with 3 cards left, all 3 are drawn; one kept (public), two returned to the
    top, known to the drawer only; the next refill reveals the first listed."""
    pos = Pos(players=3)
    pos.order_deck_only(3)
    deck = [c for c in range(44) if pos.st["orders.unknown"][c]]
    s = pos.state()
    play(s, "place OD")
    for c in deck:
        assert s.is_chance() and len(s.chance_outcomes()) == 3 - deck.index(c)
        play(s, f"card {D.cards[c].id}")
    a, b, c = (D.cards[x].id for x in deck)
    assert texts(s) == {f"keep {a}", f"keep {b}", f"keep {c}", "keep none"}
    play(s, f"keep {a}")
    # the whole deck was drawn: no destination node, the cards form the deck (as on top)
    assert texts(s) == {f"return {b}", f"return {c}"}
    play(s, f"return {c}")
    assert field(s, "orders.top_n") == 2 and field(s, "orders.top_seen")[:2] == [1, 1]
    assert field(s, "outstanding")[0] == 1 << CARD[a]
    view = json.loads(s.to_json(viewer=1, format=1))["state"]
    assert view["orders.top"][:2] == [255, 255] and view["orders.unknown_n"] == 2
    view0 = json.loads(s.to_json(viewer=0, format=1))["state"]
    assert view0["orders.top"][:2] == [CARD[b], CARD[c]]       # reversed: c is on top
    # P1 takes O1: the refill is c, with no chance node
    play(s, "place O1")
    assert not s.is_chance() and field(s, "display")[0] == CARD[c]


def test_draw_five_of_the_whole_deck_skips_the_destination():
    """Contract: when the drawn items were the whole deck, the returned ones form the deck
    (no DEST node)."""
    pos = Pos(players=3)
    pos.order_deck_only(2)
    deck = [c for c in range(44) if pos.st["orders.unknown"][c]]
    s = pos.state()
    play(s, "place OD", *(f"card {D.cards[c].id}" for c in deck), "keep none")
    assert not any(t.startswith("dest") for t in texts(s))
    assert texts(s) == {f"return {D.cards[c].id}" for c in deck}


# ----------------------------------------------------------------------------- T12, T13 (shift scoring)


def t12_position(players=3, options=None):
    pos = Pos(players=players, options=options)
    piles = [("WB07", "HC01"), ("WB10", "HC03"), ("WB08", "HC09", "HC10")]   # Gabor, Evi, Moni
    if players == 2:
        piles = [piles[0], piles[2]]
    for p, pile in enumerate(piles):
        pos.delivered(p, *pile)
    return pos


def test_t12_shift_scoring_elements_1_to_8_cb_a23():
    """T12, CB-A23: after shift 2 the elements 1..8 are scored; ties for first share it and
    leave second empty; tied seconds all score."""
    s = end_shift(t12_position(), 2)
    assert field(s, "vp")[:3] == [14, 14, 19]
    assert field(s, "shift") == 3


def test_t12_after_shift_one_only_elements_1_to_4_cb_a23():
    s = end_shift(t12_position(), 1)
    assert field(s, "vp")[:3] == [5, 5, 12]


def test_t12_two_players_never_score_second_place():
    s = end_shift(t12_position(players=2), 2)
    assert field(s, "vp")[:2] == [11, 18]


def test_truck_and_locomotive_second_place_cb_a1():
    """CB-A1: truck/locomotive 2nd place is 3 VP (the Hungarian text) unless second_tr_lo."""
    def run(options):
        pos = Pos(players=3, options=options)
        pos.delivered(0, "TR09")    # 2 spaces of truck
        pos.delivered(1, "TR01")    # 1
        pos.delivered(2, "LO05")    # locomotive: alone
        return field(end_shift(pos, 2), "vp")[:3]
    # elements: Y P1 first (2); K P0 first (5) P2 2nd? K counts P0 2, P2 1 -> P2 +2; TR: P0 8, P1 2nd
    assert run(None) == [5 + 8, 2 + 3, 2 + 9]
    assert run({"second_tr_lo": 4}) == [5 + 8, 2 + 4, 2 + 9]


def t13_position(evi_delivers=True, options=None):
    """T13: Gabor P0, Evi P1, Moni P2 at the end of shift 3; one delivered order each (one
    space of their own colour on a horse cart, so elements 1-8 are known: see below)."""
    pos = Pos(players=3, options=options)
    pos.delivered(0, "HC01")          # Y
    if evi_delivers:
        pos.delivered(1, "HC03")      # B
    pos.delivered(2, "HC05")          # G
    # empty minecarts per level (Y, B, G, K): Gabor 2,0,1,4  Evi 1,0,3,0  Moni 0,0,3,4
    plan = {0: ("Y1L", "Y1D", "K2L", "K1D"), 1: ("G2D",), 2: ("G2L", "K2D", "K1L")}
    for p, tiles in plan.items():
        for t in tiles:
            pos.add_tile(p, t)
    pos.mine(0, 1, "Y"), pos.mine(0, 3, ""), pos.mine(0, 4, "")      # Y 3 carts 1 cube, G 1/0, K 4/0
    pos.mine(1, 1, ""), pos.mine(1, 3, "")                            # Y 1/0, G 3/0
    pos.mine(2, 3, ""), pos.mine(2, 4, "")                            # G 3/0, K 4/0
    return pos


def test_t13_empty_minecarts_elements_9_to_12_cb_a15():
    """T13, CB-A15: printed minecarts count; ties for first, no second."""
    s = end_shift(t13_position(), 3)
    # elements 1-8: Y Gabor 2, B Evi 3, G Moni 4, HC tie of three (1 each): 7 each
    # elements 9-12: Gabor 23, Evi 17, Moni 25
    # final: coal // 3 (Gabor Y,B = 2 -> 0, Evi B,K = 2 -> 0, Moni Y,B = 2 -> 0), no orders,
    # balance: Gabor 2L/2D 0, Evi 0L/1D -2, Moni 2L/1D -2; money 9 + 1 (the Bank, Gabor) // 5
    assert s.is_terminal()
    assert s.scores() == [9 + 23 + 2, 10 + 17 - 2 + 1, 11 + 25 - 2 + 1]


def test_t13_no_delivered_order_no_shift_scoring_cb_a2():
    """CB-A2 flag check: Evi without a delivered order scores nothing in elements 9-12."""
    s = end_shift(t13_position(evi_delivers=False), 3)
    # elements 1-8: Y Gabor 2; G Moni 4; HC tie of two: 7 each. 9-12: Gabor 29, Moni 25, Evi 0
    assert s.scores() == [9 + 29 + 2, 0 - 2 + 1, 11 + 25 - 2 + 1]
    s = end_shift(t13_position(evi_delivers=False, options={"empty_carts_need_delivery": False}), 3)
    assert s.scores()[1] == 17 - 2 + 1


def test_off_colour_cube_fills_a_minecart_cb_a15():
    pos = Pos(players=3)
    pos.delivered(0, "WB01")
    pos.add_tile(0, "K1L", cubes="Y")         # level 4: 2 minecarts, printed K + an off-colour Y
    pos.add_tile(1, "K1D")                    # level 4: 1 empty minecart
    pos.delivered(1, "WB02")
    s = end_shift(pos, 3)
    # P0: Y 2 + WB tie 6, no empty minecart (the Y cube fills one); money 10 -> 2, coal 5 -> 1,
    # balance -2. P1: B 3 + WB tie 6 + element 12 alone 13; money 9 -> 1, coal 4 -> 1, -2.
    # P2 has no delivered order (CB-A2): money 1, coal 1.
    assert s.scores() == [9.0, 22.0, 2.0]


# ----------------------------------------------------------------------------- T14 (start player)


@pytest.mark.parametrize("workers,start,expected", [
    ((2, 4, 5), 0, 2),                 # rulebook: Moni (P2) has the most
    ((3, 1, 3, 3), 0, 2),              # tie A, C, D: A excluded -> C
    ((0, 2, 0, 2), 0, 1),              # tie B, D -> B
    ((3, 1, 1, 1), 0, 0),              # A alone keeps it
    ((0, 0, 0, 0), 0, 1),              # nobody: the left neighbour (CB-A10)
    ((0, 0, 0, 0), 3, 0),
    ((1, 1, 1), 1, 2),
])
def test_t14_next_start_player_cb_a10(workers, start, expected):
    """T14, CB-A10: most factory workers (F1..F8 and FD); ties go clockwise from the start
    player, who cannot keep it by a tie; nobody in the factory -> the next player."""
    pos = Pos(players=len(workers))
    spaces = ["F1", "F2", "F3", "FD"]
    for p, k in enumerate(workers):
        if k:
            pos.workers(spaces[p], p, k)
    pos.st["start"] = start
    s = end_shift(pos, 1)
    assert field(s, "start") == expected and s.current_player == expected and field(s, "shift") == 2


def test_t14_displaced_factory_workers_do_not_count():
    pos = Pos(players=3)
    pos.workers("F3", 0, 3)                  # P0 displaced P1's 2 workers from F3 ...
    pos.st["supply"][1] -= 2
    pos.st["canteen"][1] += 2
    pos.workers("F1", 2, 1)
    pos.workers("FD", 2, 3)                  # ... and workers on FD count
    s = end_shift(pos, 1)
    assert field(s, "start") == 2            # P2: 1 + 3 = 4 > P0's 3; P1's 2 are in the Canteen


# ----------------------------------------------------------------------------- T15, T16 (final scoring)


def final_position(players=2):
    pos = Pos(players=players)
    for p in range(players):
        for level in (1, 2, 3, 4):
            pos.mine(p, level, "")
    return pos


def test_t15_final_scoring_cb_a13():
    """T15, CB-A13: money // 5 (the rest kept), cubes // 3 anywhere, -1 per outstanding
    order, -2 per tile of Light/Dark difference: net -5."""
    pos = final_position()
    for t in ("Y1L", "Y1L", "Y1L", "B1L", "B1L", "B1L", "G1L"):
        pos.add_tile(0, t)
    for t in ("Y1D", "Y1D", "Y1D", "B1D"):
        pos.add_tile(0, t)
    pos.mine(0, 1, "Y")
    pos.cage(0, 2, "B")
    pos.storage(0, "G")
    pos.give(0, "LO08", filled="G")
    pos.money(0, 6)                           # + 1 from the Bank below = 7
    s = end_shift(pos, 3)
    assert s.is_terminal()
    assert s.scores()[0] == -5 and field(s, "money")[0] == 2
    assert field(s, "penalty")[0] == 7


def test_t16_final_tie_break_on_marks_left():
    """T16 (spec 7.4): equal VP -> more Marks left wins; equal again -> shared."""
    pos = final_position()
    pos.st["vp"][:2] = [47, 48]
    pos.money(0, 12)                          # + 1 from the Bank = 13 -> 2 VP, 3 left
    pos.money(1, 7)                           # 1 VP, 2 left
    s = end_shift(pos, 3)
    assert s.scores() == [49.0, 49.0] and field(s, "money")[:2] == [3, 2]
    assert s.returns() == [1.0, 0.0]
    pos = final_position()
    pos.st["vp"][:2] = [47, 48]
    pos.money(0, 12)
    pos.money(1, 8)
    s = end_shift(pos, 3)
    assert s.returns() == [0.5, 0.5]


def test_returns_are_zero_before_the_end():
    s = Pos(players=3).state()
    assert s.returns() == [0.0, 0.0, 0.0]


# ----------------------------------------------------------------------------- T17 (coal shortage)


def test_t17_coal_shortage_cb_a6():
    """T17, CB-A6: a minecart that cannot get its colour takes any available colour (forced
    with one colour); the price is unchanged; off-colour cubes keep their colour."""
    pos = Pos(players=3)
    pos.factory(0, "G2D")
    pos.money(0, 6)
    pos.supply_coal("GYYY", dump=2)
    s = pos.state()
    play(s, "place F1")
    assert field(s, "money")[0] == 0 and field(s, "coal") == [2, 0, 0, 0]
    assert field(s, "mine")[0][8:12] == [1, 0, 2, 0]      # printed G + G + Y
    s.apply(s.chance_outcomes()[0][0])                    # the refill of F1
    play(s, "place bank", "place bank")                   # P1, P2
    play(s, "place M6", "cage 3")
    assert {"load G", "load Y"} <= texts(s)
    play(s, "load Y")
    assert field(s, "cage")[0] == [1, 0, 0, 0]


def test_t17_shortage_choice_and_empty_supply_cb_a6():
    pos = Pos(players=3)
    pos.factory(0, "K2D")
    pos.money(0, 8)
    pos.supply_coal("YB", dump=2)
    s = pos.state()
    play(s, "place F1")
    assert texts(s) == {"shortage Y", "shortage B"}
    play(s, "shortage B")
    assert texts(s) == set() and s.is_chance()           # the second minecart takes the Y
    assert field(s, "mine")[0][12:16] == [1, 1, 0, 1]
    pos = Pos(players=3)
    pos.factory(0, "K2D")
    pos.money(0, 8)
    pos.supply_coal("", dump=2)
    s = pos.state()
    play(s, "place F1")
    assert field(s, "carts")[0][3] == 3 and field(s, "mine")[0][12:16] == [0, 0, 0, 1]   # 2 empty


# ----------------------------------------------------------------------------- T18 (exhaustion)


def test_t18_deck_exhaustion_cb_a22_cb_a7():
    """T18, CB-A22, CB-A7: with an empty stack a bought slot stays empty and is never legal
    again (whatever workers it holds); the draw-5 space is not legal; no reshuffle."""
    pos = Pos(players=3)
    pos.factory(1, "Y1L")
    pos.empty_tile_stack(1)
    s = pos.state()
    assert "place FD" not in texts(s)
    play(s, "place F2")
    assert not s.is_chance() and field(s, "factory")[1] == 255 and s.current_player == 1
    assert "place F2" not in texts(s)
    assert field(s, "count")[SPACE["F2"]] == 1


# ----------------------------------------------------------------------------- T19 (setup)


@pytest.mark.parametrize("players,workers,money,pool,display,deck,tiles,stack,coal", [
    (4, 13, 8, 13, 4, 28, 8, 40, 12),
    (3, 15, 9, 10, 4, 31, 7, 41, 13),
    (2, 18, 10, 7, 3, 35, 6, 42, 14),
])
def test_t19_setup_counts_cb_a3(players, workers, money, pool, display, deck, tiles, stack, coal):
    """T19, CB-A3: workers, Marks, draft pool, displays, decks and coal per player count; the
    locked spaces (2p: F4 F8 M4 M8 $3 $5 O1; 3p: F8 M4 $3) never appear."""
    g = es.game("coal_baron", players=players, options={"start_player": 0})
    s = g.initial_state()
    rng = random.Random(3)
    to_decision(s, rng)
    assert field(s, "supply")[:players] == [workers] * players
    assert field(s, "money")[:players] == [money] * players
    assert bin(field(s, "pool")).count("1") == pool
    assert sum(x != 255 for x in field(s, "factory")) == tiles
    assert field(s, "tiles.unknown_n") == stack
    assert field(s, "coal") == [coal] * 4
    picks = []
    while field(s, "phase") == 4:   # DRAFT
        picks.append(s.current_player)
        s.apply(rng.choice(s.legal_moves()))
        to_decision(s, rng)
    assert picks == [(-1 - i) % players for i in range(3 * players)]   # CB-A14: 3,2,1,0 x 3
    assert sum(x != 255 for x in field(s, "display")) == display
    assert field(s, "orders.unknown_n") == deck
    assert s.current_player == 0
    locked = {2: {"F4", "F8", "M4", "M8", "$3", "$5", "O1"}, 3: {"F8", "M4", "$3"}, 4: set()}[players]
    if players == 2:
        assert field(s, "display")[0] == 255
    seen = set()
    for _ in range(200):
        if s.is_terminal():
            break
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(64)))
            continue
        seen |= {t.split()[1] for t in texts(s) if t.startswith("place")}
        s.apply(rng.choice(s.legal_moves()))
    assert not seen & locked and len(seen) > 10


def test_draft_leftover_goes_to_o4_cb_a14():
    """CB-A14: the card nobody drafted goes on O4 (open at every player count)."""
    for players in (2, 3, 4):
        g = es.game("coal_baron", players=players, options={"start_player": 1})
        s = g.initial_state()
        rng = random.Random(players)
        to_decision(s, rng)
        while field(s, "phase") == 4:
            s.apply(rng.choice(s.legal_moves()))
            if field(s, "phase") == 4:
                to_decision(s, rng)
        left = [c for c in range(44) if (field(s, "pool") >> c) & 1]
        assert left == [] and field(s, "display")[3] != 255
        assert field(s, "phase") == 5 and s.is_chance()    # the other slots are drawn next


def test_first_start_player_is_a_chance_node_cb_a20():
    g = es.game("coal_baron", players=3)
    s = g.initial_state()
    rng = random.Random(1)
    while field(s, "phase") == 1:
        s.apply(s.sample_chance(rng.getrandbits(64)))
    assert outcomes(s) == {"start P0": 1 / 3, "start P1": 1 / 3, "start P2": 1 / 3}


def test_setup_tile_draws_have_exact_probabilities():
    g = es.game("coal_baron", players=2)
    s = g.initial_state()
    assert outcomes(s) == {f"tile {t.id}": 3 / 48 for t in D.tiles}
    play(s, "tile K2D")
    assert outcomes(s)["tile K2D"] == 2 / 47 and outcomes(s)["tile Y1L"] == 3 / 47


# ----------------------------------------------------------------------------- T20 and shifts


def test_t20_players_without_workers_are_skipped():
    """T20: A has no workers; B plays on until it has none; then the shift ends at once."""
    pos = Pos(players=2)
    pos.supply(0, 0)
    pos.supply(1, 3)
    pos.to_move(1)
    s = pos.state()
    for left in (3, 2, 1):
        assert s.current_player == 1 and field(s, "supply")[1] == left
        play(s, "place bank")
    assert field(s, "shift") == 2 and field(s, "supply")[:2] == [18, 18]
    assert s.current_player == 1             # nobody in the factory: left of start P0


def test_between_shifts_only_workers_reset_cb_a11_cb_a16():
    """CB-A11, CB-A16: cages, storage, money, orders, displays and decks persist; workers and
    spaces reset."""
    pos = Pos(players=3)
    pos.cage(0, 3, "GK")
    pos.storage(0, "Y")
    pos.give(0, "HC05", filled="G")
    pos.workers("M6", 1, 2)
    before = pos.state()
    s = end_shift(pos, 1)
    for name in ("cage", "cage_level", "storage", "outstanding", "factory", "display", "tiles.unknown", "orders.unknown"):
        assert field(s, name) == field(before, name), name
    assert field(s, "money")[0] == field(before, "money")[0] + 1
    assert field(s, "count") == [0] * 26 and field(s, "canteen") == [0, 0, 0, 0] and field(s, "bank") == [0, 0, 0, 0]


def test_delivered_orders_are_public_cb_a9():
    """CB-A9: other players' delivered piles are shown to every viewer."""
    pos = Pos(players=3)
    pos.delivered(1, "HC09")
    s = pos.state()
    assert json.loads(s.to_json(viewer=0, format=1))["state"]["delivered"][1] == 1 << CARD["HC09"]


# ----------------------------------------------------------------------------- hidden information


def test_drawn_tiles_are_secret_cb_a8():
    """CB-A8: the five drawn tiles are seen by the drawer only: another viewer's JSON,
    observation and move view hide them, and determinization resamples them."""
    pos = Pos(players=3)
    pos.neutral_factory()
    pos.money(0, 0)
    s = pos.state()
    play(s, "place FD")
    _draw_five(s, ("Y1L", "K2D", "G1D", "B2L", "Y2D"))
    own = json.loads(s.to_json(viewer=0, format=1))["state"]["buf"]
    other = json.loads(s.to_json(viewer=1, format=1))["state"]["buf"]
    assert own[:5] == [TILE[t] for t in ("Y1L", "K2D", "G1D", "B2L", "Y2D")] and other[:5] == [255] * 5
    worlds = {tuple(field(s.determinize(1, seed), "buf")[:5]) for seed in range(20)}
    assert len(worlds) > 10
    assert all(s.determinize(1, seed).to_json(viewer=1) == s.to_json(viewer=1) for seed in range(5))
    assert field(s.determinize(0, 3), "buf") == field(s, "buf")
    assert np.array_equal(s.determinize(2, 1).observation(2), s.observation(2))
    mv = s.legal_moves()
    assert s.move_to_str(mv[0]).startswith("dest")


def test_determinization_keeps_what_the_observer_knows():
    """Items a player returned stay where that player knows them; others' are resampled; the
    world depends only on what the observer sees."""
    pos = Pos(players=3)
    pos.neutral_factory()
    pos.money(0, 1)
    s = pos.state()
    play(s, "place FD")
    _draw_five(s, ("Y1L", "K2D", "G1D", "B2L", "Y2D"))
    play(s, "keep Y1L", "dest bottom", "return K2D", "return G1D", "return B2L")
    mine = field(s.determinize(0, 9), "tiles.bot")[:4]
    assert mine == [TILE[t] for t in ("K2D", "G1D", "B2L", "Y2D")]
    others = {tuple(field(s.determinize(1, seed), "tiles.bot")[:4]) for seed in range(20)}
    assert len(others) > 5
    t = s.determinize(1, 77)
    for seed in (1, 2, 3):
        assert s.determinize(1, seed) == t.determinize(1, seed)


def test_mcts_agents_play_legal_moves_with_hidden_buffers():
    from eurosearch import agents
    pos = Pos(players=3)
    s = pos.state()
    play(s, "place OD")
    rng = random.Random(2)
    to_decision(s, rng)
    for spec in ("ismcts:iterations=60", "mcts:iterations=40:depth=4", "heuristic"):
        assert agents.make(spec, seed=1).choose(s.clone(), 0) in s.legal_moves()


@pytest.mark.parametrize("spec", ["mcts:iterations=60", "ismcts:iterations=60", "random", "heuristic"])
def test_choices_do_not_depend_on_tiles_returned_by_others(spec):
    """A seeded agent's choice is the same in every world consistent with what it saw: here
    the order of tiles another player returned to the bottom (CB-A8)."""
    from eurosearch import agents
    pos = Pos(players=3)
    pos.neutral_factory()
    pos.money(0, 1)
    s = pos.state()
    play(s, "place FD")
    _draw_five(s, ("Y1L", "K2D", "G1D", "B2L", "Y2D"))
    play(s, "keep Y1L", "dest top", "return K2D", "return G1D", "return B2L")
    assert s.current_player == 1
    others = [s.determinize(1, seed) for seed in range(3)]
    assert any(o != s for o in others)
    first = agents.make(spec, seed=5).choose(s.clone(), 1)
    for o in others:
        assert agents.make(spec, seed=5).choose(o, 1) == first


# ----------------------------------------------------------------------------- whole games


def check_conservation(g, d: dict) -> None:
    """Coal, order cards, tiles and workers are conserved (spec 8.8) at every node."""
    n = g.players
    coal = list(d["coal"])
    for p in range(n):
        for k in range(4):
            coal[k] += d["cage"][p][k] + d["storage"][p][k] + sum(d["mine"][p][l * 4 + k] for l in range(4))
    for c in range(44):
        for k in range(4):
            coal[k] += d["oncard"][c][k]
    assert coal == [16] * 4
    places = [d["pool"]] + d["outstanding"][:n] + d["delivered"][:n]
    cards = [c for c in range(44) if d["orders.unknown"][c]]
    cards += d["orders.top"][:d["orders.top_n"]] + d["orders.bot"][:d["orders.bot_n"]]
    cards += [c for c in d["display"] if c != 255]
    if d["buf_kind"] == 2:
        cards += d["buf"][:d["buf_n"]]
    for x in places:
        cards += [c for c in range(44) if (x >> c) & 1]
    assert sorted(cards) == list(range(44))
    tiles = sum(d["tiles.unknown"]) + d["tiles.top_n"] + d["tiles.bot_n"] + sum(t != 255 for t in d["factory"])
    tiles += sum(map(sum, d["owned"][:n])) + (d["buf_n"] if d["buf_kind"] == 1 else 0)
    assert tiles == 48
    on = [0] * n
    for sp in range(26):
        if d["owner"][sp] >= 0:
            on[d["owner"][sp]] += d["count"][sp]
    for p in range(n):
        assert d["supply"][p] + on[p] + d["canteen"][p] + d["bank"][p] == D.workers[n]
        assert sum(d["cage"][p]) <= 5
        for lvl in range(4):
            assert sum(d["mine"][p][lvl * 4:lvl * 4 + 4]) <= d["carts"][p][lvl]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1),
       opt=st.sampled_from([{}, {"second_tr_lo": 4}, {"empty_carts_need_delivery": False}, {"start_player": 1}]))
def test_whole_games_keep_every_invariant(players, seed, opt):
    g = es.game("coal_baron", players=players, options=opt or None)
    s = g.initial_state()
    rng = random.Random(seed)
    steps = 0
    while True:
        d = json.loads(s.to_json(format=1))["state"]
        check_conservation(g, d)
        if steps % 7 == 0:
            assert g.state_from_bytes(s.to_bytes()) == s
            p = rng.randrange(players)
            w = s.determinize(p, rng.getrandbits(32))
            assert w.to_json(viewer=p) == s.to_json(viewer=p) and w.current_player == s.current_player
            assert np.array_equal(w.observation(p), s.observation(p))
            check_conservation(g, json.loads(w.to_json(format=1))["state"])
        if s.is_terminal():
            r = s.returns()
            assert sum(r) == pytest.approx(1.0) and max(r) > 0
            best = max(s.scores())
            assert all(s.scores()[q] == best for q in range(players) if r[q] > 0)
            assert d["shift"] == 3
            return
        if s.is_chance():
            oc = s.chance_outcomes()
            assert abs(sum(p for _, p in oc) - 1) < 1e-12
            s.apply(s.sample_chance(rng.getrandbits(64)))
        else:
            moves = s.legal_moves()
            assert len(moves) >= 2 and len(set(moves)) == len(moves)
            assert s.returns() == [0.0] * players
            s.apply(rng.choice(moves))
        steps += 1


def test_sampled_tiles_follow_their_probabilities():
    g = es.game("coal_baron", players=2)
    s = g.initial_state()
    play(s, "tile K2D", "tile K2D")
    probs = dict(s.chance_outcomes())
    counts = Counter(s.sample_chance(seed) for seed in range(20000))
    for m, p in probs.items():
        assert abs(counts[m] / 20000 - p) < 0.01
