"""Plain pure-Python reference implementation of Bruges.

Rules: ``shared/rules/bruges.md`` (the spec; section numbers and BR-A ids in comments refer to
it). Engine mapping (decision nodes, chance nodes, move ids, the card pool): the contract
``docs/bruges_engine.md``. Written from those two documents, not from the C core, and meant to
be read against them; a differential test plays it step by step against the C core.

The game flow is one Python generator (``_game``) that reads like the spec's round pseudo-code
(§4.9): it yields every node and receives the chosen move or chance outcome.

* a **decision node** yields ``(player, moves)``; a decision with a single legal move is never
  shown (contract: forced decisions are applied by the engine);
* a **chance node** yields ``(CHANCE, [(outcome, probability), ...])``.

A generator cannot be copied, so ``clone()`` replays the move history on a fresh state.
"""

from __future__ import annotations

import random
from typing import Generator

from eurosearch.games.bruges import BrugesOptions
from eurosearch.games.bruges_data import BrugesData
from .base import check_players, check_start_player, move_id, random_playout as playout

CHANCE, TERMINAL = -1, -2

# --- Move ids (contract "Move and chance ids (frozen)"): bits 0-3 type ------------------------
DRAW, DRAW_STOP, REP, ORDER, FIRE_HOUSE, FIRE_CANAL, PLAGUE, ACTIVATE = 1, 2, 3, 4, 5, 6, 7, 8
PLAY, END_TURN, JAILER, START, DIE, TOP, CARD = 9, 10, 11, 12, 13, 14, 15
# Actions of PLAY (bits 12-14).
A_WORKERS, A_MONEY, A_THREAT, A_CANAL0, A_CANAL1, A_HOUSE, A_RECRUIT = range(7)
ACTION_NAMES = ("I", "II", "III", "IV-0", "IV-1", "V", "VI")
MOVE_TYPE_NAMES = {DRAW: "DRAW", DRAW_STOP: "DRAW_STOP", REP: "REP", ORDER: "ORDER",
                   FIRE_HOUSE: "FIRE_HOUSE", FIRE_CANAL: "FIRE_CANAL", PLAGUE: "PLAGUE",
                   ACTIVATE: "ACTIVATE", PLAY: "PLAY", END_TURN: "END_TURN", JAILER: "JAILER",
                   START: "START", DIE: "DIE", TOP: "TOP", CARD: "CARD"}

COLOURS = 5
TURNS_PER_ROUND = 4          # spec 4.4.1: each player takes exactly 4 turns
THREATS_FOR_DISASTER = 3     # spec 4.3.2
DISASTER_FACE = 5            # spec 4.3.2: a die showing 5 or 6 hands out threat markers
REPUTATION_FACE = 2          # spec 4.3.3: dice showing 1 or 2 make the reputation cost
MARKER_VP = 4                # spec 4.7: each flipped majority marker
CANAL_BONUS_LENGTH, CANAL_BONUS_VP = 3, 3   # spec 4.5 (BR-A8)
SECTION_LENGTH = 5
INTRIGUE_LOSS = 3            # spec 4.8


def draw_move(slot: int) -> int: return DRAW | slot << 4
def rep_move(pay: bool) -> int: return REP | int(pay) << 4
def order_move(col: int) -> int: return ORDER | col << 4
def fire_house_move(card: int) -> int: return FIRE_HOUSE | card << 4
def fire_canal_move(section: int) -> int: return FIRE_CANAL | section << 4
def plague_move(card: int) -> int: return PLAGUE | card << 4
def activate_move(card: int) -> int: return ACTIVATE | card << 4
def play_move(card: int, action: int) -> int: return PLAY | card << 4 | action << 12
def jailer_move(col: int) -> int: return JAILER | col << 4
def start_move(p: int) -> int: return START | p << 4
def die_move(col: int, face: int) -> int: return DIE | col << 4 | face << 7
def top_move(slot: int, col: int) -> int: return TOP | slot << 4 | col << 5
def card_move(card: int) -> int: return CARD | card << 4


def move_type(move: int) -> int:
    return move & 15


def move_to_str(move: int) -> str:
    """A readable form, e.g. 'PLAY(card=16, action=VI)'."""
    t = move & 15
    if t == PLAY:
        return f"PLAY(card={move >> 4 & 255}, action={ACTION_NAMES[move >> 12 & 7]})"
    if t == DIE:
        return f"DIE(col={move >> 4 & 7}, face={move >> 7 & 7})"
    if t == TOP:
        return f"TOP(slot={move >> 4 & 1}, col={move >> 5 & 7})"
    if t in (DRAW_STOP, END_TURN):
        return MOVE_TYPE_NAMES[t]
    return f"{MOVE_TYPE_NAMES.get(t, '?')}({move >> 4})"


class Player:
    """One player's material (spec 2.7)."""

    def __init__(self, d: BrugesData):
        self.score = d.start_score
        self.money = d.start_money
        self.workers = [d.start_workers] * COLOURS
        self.threats = [0] * COLOURS
        self.rep = 0                          # 0 = town hall
        self.canal = [0, 0]                   # tiles built per section
        self.statue_got = [False, False]      # BR-A33: one statue per section, ever
        self.statues: list[int] = []
        self.markers = [False, False, False]  # reputation, persons, canals (spec 4.7)
        self.hand: list[int] = []             # card ids, identity decided
        self.pending = [0] * COLOURS          # phase-1 draws, identity not yet decided
        self.houses: list[list[int]] = []     # [house card, person card or -1], oldest first
        self.rotated: set[int] = set()

    def persons(self) -> list[int]:
        return [person for _, person in self.houses if person >= 0]


class BrugesReference:
    """The game definition: data, player count and options."""

    def __init__(self, data: BrugesData, players: int, options: BrugesOptions | None = None):
        check_players("Bruges", players, 2, 4)
        self.data = data
        self.players = players
        self.options = options if options is not None else BrugesOptions()
        check_start_player(self.options.start_player, players)

    def initial_state(self) -> "BrugesRefState":
        return BrugesRefState(self)


class BrugesRefState:
    """A game position. Mutated in place by ``apply``; ``clone`` for a copy (by replay)."""

    def __init__(self, ref: BrugesReference):
        self.ref = ref
        d, n = ref.data, ref.players
        self.n = n
        self.cards = d.cards
        self.p = [Player(d) for _ in range(n)]
        # Card pool (contract "The card pool"): cards whose identity is not decided yet.
        self.pool: list[set[int]] = [set() for _ in range(COLOURS)]
        for i, c in enumerate(d.cards):
            self.pool[c.colour].add(i)
        in_play = 33 * n                                  # spec 3.2
        self.size = [(in_play + 1) // 2, in_play // 2]    # BR-A13
        self.top = [-1, -1]
        self.extra_size = len(d.cards) - in_play
        self.extra_entered = False
        self.drawer = -1                  # whose pending[] is pinned during phase-1 draws
        self.discard: list[int] = []
        self.statue_stack = list(d.statues)
        self.dice = [0] * COLOURS
        self.start = 0
        self.round = 1
        self.final_round = False          # this round is the last (BR-A7)
        self.final_next = False           # the next round is the last (BR-A7)
        self.phase = 0
        self.over = False
        self.final_vp = [0] * n
        self.history: list[int] = []
        self._flow = self._game()
        self._node = self._flow.send(None)
        self._skip_forced(None)

    # ------------------------------------------------------------------ public interface

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return self._node[0]

    def is_chance(self) -> bool:
        return not self.over and self._node[0] == CHANCE

    def is_terminal(self) -> bool:
        return self.over

    def legal_moves(self) -> list[int]:
        if self.over or self._node[0] == CHANCE:
            return []
        return sorted(self._node[1])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.over or self._node[0] != CHANCE:
            return []
        return list(self._node[1])

    def apply(self, move: int) -> None:
        """Apply a decision move or a chance outcome; ValueError (state unchanged) if not legal."""
        move = move_id(move)
        if self.over:
            raise ValueError("the game is over")
        if self._node[0] == CHANCE:
            if move not in {o for o, _ in self._node[1]}:
                raise ValueError(f"{move} is not a chance outcome here")
        elif move not in self._node[1]:
            raise ValueError(f"{move_to_str(move)} is not a legal move here")
        self.history.append(move)
        self._step(move)

    def sample_chance(self, rng: random.Random) -> int:
        """One chance outcome, drawn with the listed probabilities."""
        if not self.is_chance():
            raise ValueError("sample_chance: not a chance node")
        x = rng.random()
        outcomes = self._node[1]
        for o, pr in outcomes:
            x -= pr
            if x < 0:
                return o
        return outcomes[-1][0]

    def apply_sampled(self, outcome: int) -> None:
        self.apply(outcome)

    def scores(self) -> list[float]:
        return [float(pl.score + self.final_vp[i]) for i, pl in enumerate(self.p)]

    def returns(self) -> list[float]:
        """Spec 1 / 7: most VP, then most guilders; a remaining tie is a shared victory."""
        if not self.over:
            return [0.0] * self.n
        best = max((s, self.p[i].money) for i, s in enumerate(self.scores()))
        winners = [i for i, s in enumerate(self.scores()) if (s, self.p[i].money) == best]
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(self.n)]

    def clone(self) -> "BrugesRefState":
        other = BrugesRefState(self.ref)
        for m in self.history:
            other.apply(m)
        return other

    def __repr__(self) -> str:
        return (f"BrugesRefState(round={self.round}, phase={self.phase}, "
                f"scores={self.scores()}, money={[pl.money for pl in self.p]})")

    # ------------------------------------------------------------------ driving the flow

    def _step(self, move: int) -> None:
        try:
            self._node = self._flow.send(move)
        except StopIteration:
            self.over = True
            return
        self._skip_forced(move)

    def _skip_forced(self, _move) -> None:
        """Contract: a decision with exactly one legal move is applied, never presented."""
        while not self.over and self._node[0] >= 0 and len(self._node[1]) == 1:
            (only,) = self._node[1]
            self._step(only)

    # ------------------------------------------------------------------ the game (spec 4.9)

    def _game(self) -> Generator:
        opts = self.ref.options
        if opts.start_player is None:             # spec 3.1 step 7
            self.start = (yield (CHANCE, [(start_move(q), 1.0 / self.n) for q in range(self.n)])) >> 4 & 3
        else:
            self.start = opts.start_player
        yield from self._reveal_top(0)            # contract "Sequence of nodes": setup
        yield from self._reveal_top(1)
        while True:
            self.phase = 1
            for p in self._clockwise():
                yield from self._phase1_refill(p)
            self.phase = 2
            yield from self._phase2()
            self.phase = 3
            for _ in range(TURNS_PER_ROUND):
                for p in self._clockwise():
                    if self.p[p].hand:            # BR-A24: an empty hand passes the turn
                        yield from self._turn(p)
            self.phase = 4
            self._phase4()
            if self.final_round or self.round >= opts.max_rounds:
                self._final_scoring()
                return
            if self.final_next:
                self.final_round = True
            self.round += 1

    def _clockwise(self) -> list[int]:
        return [(self.start + i) % self.n for i in range(self.n)]

    # --- decisions and the card pool -------------------------------------------------------

    def _decide(self, p: int, moves: list[int]) -> Generator:
        return (yield (p, moves))

    def _free(self, drawing_slot: int) -> list[int]:
        """Contract: free[k] = pool[k] - pinned[k]; pinned = the other non-empty slot's top
        colour and the drawer's pending colours."""
        free = [len(s) for s in self.pool]
        for s in (0, 1):
            if s != drawing_slot and self.size[s] > 0 and self.top[s] >= 0:   # known top
                free[self.top[s]] -= 1
        if self.drawer >= 0:
            for k, c in enumerate(self.p[self.drawer].pending):
                free[k] -= c
        return free

    def _reveal_top(self, slot: int) -> Generator:
        """Chance TOP(slot, k): the colour of the slot's new top card (spec 5.3)."""
        free = self._free(slot)
        total = sum(free)
        outcome = yield (CHANCE, [(top_move(slot, k), f / total) for k, f in enumerate(free) if f > 0])
        self.top[slot] = outcome >> 5 & 7

    def _decide_card(self, colour: int) -> Generator:
        """Chance CARD(c): uniform over the pool cards of that colour; c leaves the pool."""
        pool = self.pool[colour]
        outcome = yield (CHANCE, [(card_move(c), 1.0 / len(pool)) for c in sorted(pool)])
        card = outcome >> 4 & 255
        pool.discard(card)
        return card

    def _draw(self, p: int, optional: bool = False) -> Generator:
        """One draw by p (spec 4.2.1): choose a non-empty slot; DRAW_STOP if optional.
        Returns False if p stopped or nothing could be drawn."""
        slots = [s for s in (0, 1) if self.size[s] > 0]
        if not slots:
            return False                           # BR-A10: nothing left, the draw is skipped
        moves = [draw_move(s) for s in slots] + ([DRAW_STOP] if optional else [])
        m = yield from self._decide(p, moves)
        if m == DRAW_STOP:
            return False
        s = m >> 4 & 1
        k = self.top[s]
        self.size[s] -= 1
        if self.phase == 1:
            self.p[p].pending[k] += 1              # identity decided at the reveal
        else:                                      # BR-A27: seen at once
            self.p[p].hand.append((yield from self._decide_card(k)))
        if self.size[s] == 0:
            yield from self._exhausted(s)
        else:
            yield from self._reveal_top(s)
        return True

    def _exhausted(self, s: int) -> Generator:
        """Spec 4.2.3 (BR-A7, BR-A10, BR-A12)."""
        if not self.extra_entered:
            self.extra_entered = True
            self.size[s], self.extra_size = self.extra_size, 0
            if self.phase == 1:
                self.final_round = True
            else:
                self.final_next = True
            yield from self._reveal_top(s)
            return
        o = 1 - s
        m = self.size[o]
        if m >= 2:
            self.size[s], self.size[o] = m // 2, m - m // 2
            yield from self._reveal_top(s)

    # --- phase 1 ---------------------------------------------------------------------------

    def _hand_size(self, p: int) -> int:
        return len(self.p[p].hand) + sum(self.p[p].pending)

    def _phase1_refill(self, p: int) -> Generator:
        d = self.ref.data
        self.drawer = p
        while self._hand_size(p) < d.hand_size:                     # mandatory (spec 4.2.1)
            if not (yield from self._draw(p)):
                break
        target = max((self.cards[c].amount for c in self.p[p].persons()
                      if self.cards[c].effect == "hand_target"), default=0)   # does not stack
        while self._hand_size(p) < target:                         # optional (BR-A35)
            if not (yield from self._draw(p, optional=True)):
                break
        pl = self.p[p]
        for k in range(COLOURS):                                   # reveal, colour order
            while pl.pending[k] > 0:
                pl.hand.append((yield from self._decide_card(k)))
                pl.pending[k] -= 1
        self.drawer = -1

    # --- phase 2 ---------------------------------------------------------------------------

    def _phase2(self) -> Generator:
        for col in range(COLOURS):
            outcome = yield (CHANCE, [(die_move(col, f), 1.0 / 6) for f in range(1, 7)])
            self.dice[col] = outcome >> 7 & 7
        for col in range(COLOURS):                 # spec 4.3.2 step 1
            if self.dice[col] >= DISASTER_FACE:
                for pl in self.p:
                    pl.threats[col] += 1
        for p in self._clockwise():                # step 2: the player orders them
            yield from self._disasters(p)
        low = [v for v in self.dice if v <= REPUTATION_FACE]
        if low:                                    # spec 4.3.3
            cost = sum(low)
            top = len(self.ref.data.rep_vp) - 1    # BR-A2
            for p in self._clockwise():
                pl = self.p[p]
                if pl.money >= cost and pl.rep < top:
                    if (yield from self._decide(p, [rep_move(False), rep_move(True)])) == rep_move(True):
                        pl.money -= cost
                        pl.rep += 1

    def _disasters(self, p: int) -> Generator:
        pl = self.p[p]
        struck = [c for c in range(COLOURS) if pl.threats[c] >= THREATS_FOR_DISASTER]
        while struck:
            col = struck[0]
            if len(struck) > 1:
                col = (yield from self._decide(p, [order_move(c) for c in struck])) >> 4 & 7
            struck.remove(col)
            yield from self._disaster(p, col)
            pl.threats[col] = 0                    # returned, no VP (spec 4.3.2)

    def _disaster(self, p: int, col: int) -> Generator:
        """Spec 4.8; the kind per colour is data (K1, BR-A4)."""
        pl = self.p[p]
        kind = self.ref.data.disaster[col]
        if kind == "flood":
            pl.workers = [0] * COLOURS
        elif kind == "riot":
            pl.money = 0
        elif kind == "intrigue":
            pl.score = max(0, pl.score - INTRIGUE_LOSS)
        elif kind == "plague":
            persons = pl.persons()
            if persons:                            # BR-A21
                m = yield from self._decide(p, [plague_move(c) for c in persons])
                card = m >> 4 & 255
                for h in pl.houses:
                    if h[1] == card:
                        h[1] = -1
                pl.rotated.discard(card)
                self.discard.append(card)
        elif kind == "fire":
            moves = [fire_house_move(h[0]) for h in pl.houses]
            moves += [fire_canal_move(s) for s in (0, 1) if pl.canal[s] > 0]
            if moves:
                m = yield from self._decide(p, moves)
                if move_type(m) == FIRE_CANAL:
                    pl.canal[m >> 4 & 1] -= 1      # the outermost tile; statue kept (BR-A33)
                else:
                    card = m >> 4 & 255
                    house = next(h for h in pl.houses if h[0] == card)
                    pl.houses.remove(house)
                    self.discard.append(card)
                    if house[1] >= 0:              # the person returns to hand, un-rotated
                        pl.hand.append(house[1])
                        pl.rotated.discard(house[1])
        else:
            raise ValueError(f"unknown disaster kind {kind!r}")

    # --- phase 3 ---------------------------------------------------------------------------

    def _turn(self, p: int) -> Generator:
        """Spec 4.4.1 and 4.6: activations before/after, one card play (+ Coachman plays)."""
        pl = self.p[p]
        plays_left, played = 1, 0
        while True:
            moves: list[int] = []
            if plays_left > 0:
                for card in pl.hand:
                    moves += [play_move(card, a) for a in self._actions(p, card)]
            for card in pl.persons():
                c = self.cards[card]
                if card in pl.rotated:
                    continue
                if (c.activation == "worker" and pl.workers[c.worker_colour] >= 1) or c.activation == "inf1":
                    moves.append(activate_move(card))
            if played >= 1 or not pl.hand:
                moves.append(END_TURN)
            m = yield from self._decide(p, moves)
            if m == END_TURN:
                return
            card = m >> 4 & 255
            if move_type(m) == ACTIVATE:
                plays_left += yield from self._activate(p, card)
            else:
                plays_left -= 1
                played += 1
                yield from self._play(p, card, m >> 12 & 7)

    def _actions(self, p: int, card: int) -> list[int]:
        """The legal actions I-VI for this card (spec 4.4.2)."""
        pl, c, d = self.p[p], self.cards[card], self.ref.data
        acts = [A_WORKERS, A_MONEY]
        if pl.threats[c.colour] >= 1:
            acts.append(A_THREAT)
        for s in (0, 1):
            i = pl.canal[s]
            if i < SECTION_LENGTH and d.canal_colour[p][s][i] == c.colour and pl.money >= d.canal_cost[i]:
                acts.append(A_CANAL0 + s)
        if pl.workers[c.colour] >= 1:
            acts.append(A_HOUSE)
        if any(h[1] < 0 for h in pl.houses) and pl.money >= c.cost:
            acts.append(A_RECRUIT)
        return acts

    def _play(self, p: int, card: int, action: int) -> Generator:
        pl, c, d = self.p[p], self.cards[card], self.ref.data
        pl.hand.remove(card)
        col = c.colour
        if action == A_WORKERS:                    # I (+ Lawyer-types, copies add)
            pl.workers[col] += 2 + sum(self.cards[q].amount for q in pl.persons()
                                       if self.cards[q].effect == "extra_workers_action1")
        elif action == A_MONEY:                    # II
            pl.money += self.dice[col]
        elif action == A_THREAT:                   # III
            pl.threats[col] -= 1
            pl.score += 1
        elif action in (A_CANAL0, A_CANAL1):       # IV
            s = action - A_CANAL0
            pl.money -= d.canal_cost[pl.canal[s]]
            pl.canal[s] += 1
            if pl.canal[s] == SECTION_LENGTH and not pl.statue_got[s] and self.statue_stack:
                pl.statue_got[s] = True            # BR-A36 (automatic), BR-A9 (empty stack)
                pl.statues.append(self.statue_stack.pop(0))
        elif action == A_HOUSE:                    # V
            pl.workers[col] -= 1
            pl.houses.append([card, -1])
            return
        else:                                      # VI: the oldest empty house
            pl.money -= c.cost
            next(h for h in pl.houses if h[1] < 0)[1] = card
            if c.effect == "money_on_recruit":
                pl.money += c.amount
            elif c.effect == "return_threat":
                for _ in range(c.amount):
                    held = [k for k in range(COLOURS) if pl.threats[k] > 0]
                    if not held:
                        break
                    k = (yield from self._decide(p, [jailer_move(k) for k in held])) >> 4 & 7
                    pl.threats[k] -= 1
                    pl.score += 1                  # as for action III (spec 4.4.2)
            return
        self.discard.append(card)

    def _activate(self, p: int, card: int) -> Generator:
        """A worker-icon or infinity-1 person (spec 4.6); returns extra card plays granted."""
        pl, c = self.p[p], self.cards[card]
        if c.activation == "worker":
            pl.workers[c.worker_colour] -= 1
        pl.rotated.add(card)
        if c.effect == "draw_cards":
            for _ in range(c.amount):
                yield from self._draw(p)
        elif c.effect == "money_per_round":
            pl.money += c.amount
        elif c.effect == "extra_play":
            return c.amount
        return 0

    # --- phase 4 and final scoring ---------------------------------------------------------

    def _phase4(self) -> None:
        values = (
            [pl.rep for pl in self.p],
            [len(pl.persons()) for pl in self.p],
            [sum(pl.canal) for pl in self.p],
        )
        for m, vals in enumerate(values):          # spec 4.7: strictly above every other
            for i, v in enumerate(vals):
                if all(v > w for j, w in enumerate(vals) if j != i):
                    self.p[i].markers[m] = True
        self.start = (self.start + 1) % self.n
        for pl in self.p:
            pl.rotated.clear()

    def _final_scoring(self) -> None:
        """Spec 7 (T20): persons, houses, laurels, markers, canals, statues, reputation."""
        d = self.ref.data
        worker_factor = 2 if self.ref.options.bishop_rate == "caption" else 1   # BR-A5
        for i, pl in enumerate(self.p):
            persons = pl.persons()
            vp = sum(self.cards[c].vp for c in persons) + len(pl.houses)
            for q in persons:
                c = self.cards[q]
                if c.effect == "vp_per_workers":
                    vp += c.amount * (sum(pl.workers) // 2) * worker_factor
                elif c.effect == "vp_per_group":  # BR-A16: itself included
                    vp += c.amount * sum(1 for r in persons if self.cards[r].group == c.group_param)
            vp += MARKER_VP * sum(pl.markers)
            vp += CANAL_BONUS_VP * sum(1 for s in (0, 1) if pl.canal[s] >= CANAL_BONUS_LENGTH)
            vp += sum(pl.statues) + d.rep_vp[pl.rep]
            self.final_vp[i] = vp


def random_playout(ref: BrugesReference, rng: random.Random) -> tuple[list[float], int]:
    """One game from ref.initial_state() played uniformly at random: (final scores, decisions taken)."""
    return playout(ref.initial_state(), rng)
