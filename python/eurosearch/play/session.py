"""One game between people and AI seats: the state, the record, undo, AI moves and hints.

The terminal and the web server both drive a Session; neither knows a game's rules.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .. import agents as agent_registry
from ..agents.ai import AIAgent
from ..agents.mcts import MCTSAgent
from ..api import Game, State, game as make_game
from ..errors import IllegalMoveError
from . import moves as mv
from .record import CHANCE_PLAYER, GameRecord, Step, game_of, new_record, replay_states

HUMAN = "human"
#: The AI a seat gets when none is named: the game's strongest configuration (agents/ai.py)
#: for a wait a player can feel, searching from the seat's own information.
DEFAULT_AI = "ai:seconds=2"
HINT_SPEC = "ai:seconds=1"
TOP = 5


def default_ai(game_name: str) -> str:
    """The agent a seat of `game_name` gets when none is named."""
    return DEFAULT_AI


def with_a_person(seats: Sequence[str]) -> list[str]:
    """The seats of a loaded record to play or watch: an AI-only record (from match or arena)
    gets a person in seat 0, whose view is shown and who moves if the game is unfinished."""
    out = list(seats)
    if HUMAN not in out and out:
        out[0] = HUMAN
    return out


@dataclass
class Analysis:
    """A search's view of one decision: the chosen move and the top moves with visits and the
    searching player's win chance (mean return: winners share 1)."""

    move: int
    top: list[dict[str, Any]]
    seconds: float


def analyse(state: State, player: int, spec: str, seed: int, information_sets: bool | None = None) -> Analysis:
    """Search `state` for `player` with the agent `spec`, from `player`'s information only.

    An MCTS agent's search is run here so its visits and values can be shown; any other agent
    just chooses. `information_sets` overrides the agent's mode (hints use True)."""
    start = time.monotonic()
    moves = state.legal_moves()
    agent = agent_registry.make(spec, seed=seed)
    if isinstance(agent, AIAgent):
        agent = agent.agent_for(state.game.name, state.game.players)
    if not isinstance(agent, MCTSAgent):
        return Analysis(agent.choose(state, player), [], time.monotonic() - start)
    if len(moves) == 1:                       # nothing to weigh: no search, no alternatives
        return Analysis(moves[0], [], time.monotonic() - start)
    found, visits, values, _ = agent.search(state, player, seed, information_sets=information_sets, started=start)
    order = sorted(range(len(found)), key=lambda i: (-visits[i], -values[i]))
    top = [{"move": found[i], "text": state.move_to_str(found[i]), "visits": int(visits[i]),
            "win": round(float(values[i]), 3)} for i in order[:TOP]]
    best = found[order[0]] if found else moves[0]
    return Analysis(best, top, time.monotonic() - start)


class Session:
    """A game in progress. `seats[p]` is "human" or an agent spec."""

    def __init__(self, g: Game, seats: Sequence[str], seed: int = 0, record: GameRecord | None = None,
                 data: str | None = None):
        if len(seats) != g.players:
            raise ValueError(f"{g.name} with {g.players} players needs {g.players} seats, got {len(seats)}")
        for spec in seats:
            if spec != HUMAN:
                agent_registry.parse_spec(spec)      # a bad spec fails now, not at the AI's turn
        self.game = g
        self.seats = list(seats)
        self.record = record or new_record(g, seed, self.seats, data)
        self.states: list[State] = replay_states(g, self.record) if record else [g.initial_state()]
        # (step, viewer) -> what viewer may read of the step; a step never changes once made
        self._seen: dict[tuple[int, int | None], tuple[str, bool]] = {}
        self._last_push = time.monotonic()          # a person's thinking time counts from here

    @classmethod
    def new(cls, game_name: str, players: int | None, seats: Sequence[str], seed: int = 0,
            options: dict[str, Any] | None = None, data: str | None = None) -> "Session":
        g = make_game(game_name, players=players, data=data, options=options)
        return cls(g, seats, seed, data=data)

    @classmethod
    def from_record(cls, rec: GameRecord, seats: Sequence[str] | None = None, data: str | None = None) -> "Session":
        g = game_of(rec, data)
        return cls(g, list(seats) if seats else rec.seats, rec.seed, rec)

    # --- the state ---
    @property
    def state(self) -> State:
        return self.states[-1]

    def humans(self) -> list[int]:
        return [p for p, s in enumerate(self.seats) if s == HUMAN]

    def to_move(self) -> int:
        return self.state.current_player

    def human_to_move(self) -> bool:
        cp = self.to_move()
        return cp >= 0 and self.seats[cp] == HUMAN

    def ai_to_move(self) -> bool:
        cp = self.to_move()
        return cp >= 0 and self.seats[cp] != HUMAN

    # --- moves ---
    def _push(self, step: Step) -> None:
        s = self.state.clone()
        s.apply(step.move)
        self.states.append(s)           # state first: a reader in another thread never sees
        self.record.steps.append(step)  # a step without its state
        self._last_push = time.monotonic()

    def resolve_chance(self) -> list[Step]:
        """Draw every pending chance outcome (dice, cards) from the record's seed."""
        done = []
        while self.state.is_chance():
            k = len(self.record.steps)
            rng = random.Random(self.record.seed * 1_000_003 + k)
            o = self.state.sample_chance(rng.getrandbits(63))
            step = Step(CHANCE_PLAYER, o, self.state.move_to_str(o))
            self._push(step)
            done.append(step)
        return done

    def choices(self) -> list[mv.MoveChoice]:
        return mv.grouped_moves(self.state) if self.state.current_player >= 0 else []

    def parse_choice(self, text: str) -> int:
        """A move picked by its number in the list (from 1) or by its text; IllegalMoveError."""
        text = text.strip()
        options = self.choices()
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(options):
                return options[k - 1].move
            raise IllegalMoveError(f"no move number {k}; pick 1..{len(options)}")
        for c in options:
            if c.text == text:
                return c.move
        raise IllegalMoveError(f"no legal move reads {text!r} here")

    def play(self, move: int, seconds: float | None = None) -> Step:
        """The person to move makes `move`; IllegalMoveError (nothing changes) if not legal.
        `seconds`: the time taken (default: since the step before)."""
        if seconds is None:
            seconds = time.monotonic() - self._last_push
        cp = self.state.current_player
        if cp < 0 or self.seats[cp] != HUMAN:
            raise IllegalMoveError("it is not a person's turn")
        if move not in self.state.legal_moves():
            raise IllegalMoveError(self.state._illegal_message(move))
        step = Step(cp, move, self.state.move_to_str(move), round(seconds, 3))
        self._push(step)
        return step

    def ai_move(self) -> Step:
        """The AI to move searches and moves; its top alternatives go into the record."""
        cp = self.state.current_player
        spec = self.seats[cp]
        seed = self.record.seed * 7919 + len(self.record.steps)
        a = analyse(self.state, cp, spec, seed)
        step = Step(cp, a.move, self.state.move_to_str(a.move), round(a.seconds, 3), spec, a.top)
        self._push(step)
        return step

    def hint(self, seat: int, spec: str = HINT_SPEC) -> Analysis:
        """The AI's top moves for `seat`, searched from `seat`'s information only."""
        return analyse(self.state, seat, spec, seed=len(self.record.steps) + 17, information_sets=True)

    def undo(self) -> int:
        """Take back moves up to and including the last person's move; returns how many steps
        were removed (0 when there is no person's move to take back)."""
        humans = self.humans()
        last = max((i for i, st in enumerate(self.record.steps) if st.player in humans), default=None)
        if last is None:
            return 0
        return self.truncate(last)

    def truncate(self, n: int) -> int:
        """Go back to the state after the first `n` steps; returns how many were removed."""
        removed = len(self.record.steps) - n
        del self.record.steps[n:]
        del self.states[n + 1:]
        self._seen = {k: v for k, v in self._seen.items() if k[0] < n}
        return removed

    # --- what a seat sees of the log ---
    def _seen_by(self, i: int, viewer: int | None) -> tuple[str, bool]:
        """(text of step i as viewer may read it, whether viewer may see the AI's alternatives)."""
        key = (i, viewer)
        if key not in self._seen:
            st = self.record.steps[i]
            if viewer is None:
                self._seen[key] = (st.text, True)
            else:
                public = not st.alternatives or mv.moves_public(self.states[i], viewer)
                self._seen[key] = (mv.public_text(self.states[i], st.move, viewer), public)
        return self._seen[key]

    def step_text(self, i: int, viewer: int | None) -> str:
        """Step i as `viewer` may read it (an opponent's secret choice stays secret)."""
        st = self.record.steps[i]
        who = "chance" if st.player == CHANCE_PLAYER else f"P{st.player}"
        return f"{who}: {self._seen_by(i, viewer)[0]}"

    def step_alternatives(self, i: int, viewer: int | None) -> list[dict[str, Any]]:
        """The AI's top moves at step i, when `viewer` may see them (see moves_public)."""
        return self.record.steps[i].alternatives if self._seen_by(i, viewer)[1] else []

    def run_ais(self, on_step: Callable[[Step], None] | None = None) -> None:
        """Resolve chance and let AI seats move until a person is to move or the game ends."""
        while True:
            for st in self.resolve_chance():
                if on_step:
                    on_step(st)
            if not self.ai_to_move():
                return
            st = self.ai_move()
            if on_step:
                on_step(st)
