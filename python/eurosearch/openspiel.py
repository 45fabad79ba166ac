"""Every eurosearch game as an OpenSpiel (pyspiel) Python game (optional extra: ``pip install
eurosearch[openspiel]``). Importing this module registers ``eurosearch_<game>`` for each
name in ``es.games()``:

    import pyspiel, eurosearch.openspiel
    game = pyspiel.load_game("eurosearch_vienna", {"players": 3})

Player actions are the game's dense action space (``Game.num_distinct_actions``). Chance is
explicit: a chance action is the index of the outcome in ``State.chance_outcomes()`` (so
0 .. ``Game.max_chance_outcomes - 1``), with its exact probability. Information is imperfect
for games with hidden information. Utilities are the returns (winners share 1, constant sum
1). Observation tensors and strings come from the game's own observer
(``State.observation(p)``, ``State.to_text(viewer=p)``).

The information state of a player (perfect recall) is what they saw of every action so far:
``State.move_view(move, p)`` of each decision and chance outcome in order (the move itself
where p can tell it from the others, else the id it shares with those p cannot tell apart),
followed by their current view of the board. It is a string only (no information-state
tensor). ``resample_from_infostate(p, sampler)`` gives a world consistent with it, drawn by
``State.determinize`` with a seed taken from the sampler; so OpenSpiel's information-set
MCTS (``open_spiel.python.algorithms.ismcts``) runs on the games with hidden cards. In a
resampled world every player's recorded history is p's: the other players' own views of the
past are not known to p, so their information-state strings there are p's coarser ones (they
hide nothing and reveal nothing; a search only uses them as keys).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

import eurosearch as es

#: the bound on a game's length the engine enforces (es_random_playout_from's step limit)
MAX_GAME_LENGTH = 1 << 22


def short_name(name: str) -> str:
    return f"eurosearch_{name}"


def _game_type(name: str, hidden: bool) -> pyspiel.GameType:
    spec = es.game_spec(name)
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"eurosearch {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.min_players},
    )


class EurosearchGame(pyspiel.Game):
    """A pyspiel game over one eurosearch game (parameter: players); one subclass per game
    sets ``name`` (pyspiel registers a class, called with the parameters)."""

    name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        name = self.name
        spec = es.game_spec(name)
        params = dict(params or {})
        players = int(params.get("players", spec.min_players))
        self.es_game = es.game(name, players=players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.es_game.num_distinct_actions(),
            max_chance_outcomes=self.es_game.max_chance_outcomes,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(name, self.es_game.has_hidden_information), info, {"players": players})

    def new_initial_state(self) -> "EurosearchState":
        return EurosearchState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "EurosearchObserver | InformationStateObserver":
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return InformationStateObserver(params)
        return EurosearchObserver(self.es_game, params)


class EurosearchState(pyspiel.State):
    """A pyspiel state holding one eurosearch State."""

    def __init__(self, game: EurosearchGame):
        super().__init__(game)
        self.es_state = game.es_game.new_state()
        #: per player, what they saw of each action so far (State.move_view), in order
        self.views: list[list[int]] = [[] for _ in range(game.num_players())]

    def current_player(self) -> int:
        cp = self.es_state.current_player
        if cp == es.CHANCE:
            return pyspiel.PlayerId.CHANCE
        if cp == es.TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return cp

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.es_state.current_player:
            return []
        s = self.es_state
        return sorted(s.move_to_action(m) for m in s.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, p) for i, (_, p) in enumerate(self.es_state.chance_outcomes())]

    def _move(self, action: int) -> int:
        s = self.es_state
        if s.is_chance():
            outcomes = s.chance_outcomes()
            if not 0 <= action < len(outcomes):
                raise es.IllegalMoveError(f"chance action {action} out of 0..{len(outcomes) - 1}")
            return outcomes[action][0]
        return s.action_to_move(action)

    def _apply_action(self, action: int) -> None:
        move = self._move(action)
        seen = [self.es_state.move_view(move, p) for p in range(len(self.views))]   # raises if illegal
        self.es_state.apply(move)
        for view, m in zip(self.views, seen):
            view.append(m)

    def information_state(self, player: int) -> str:
        """Player's perfect-recall information state: their view of every action so far, then
        of the board (see the module's docstring)."""
        history = " ".join(map(str, self.views[player]))
        return f"p{player} saw: {history}\n{self.es_state.to_text(viewer=player)}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "EurosearchState":
        """A state consistent with `player_id`'s information state: the board determinized for
        them (``State.determinize``, seeded by one draw of `probability_sampler`, a callable
        returning a number in [0, 1)), with their history as every player's recorded one."""
        seed = int(float(probability_sampler()) * 2**62)
        world = self.clone()
        world.es_state = self.es_state.determinize(player_id, seed)
        world.views = [list(self.views[player_id]) for _ in self.views]
        return world

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self.es_state.move_to_str(self._move(action))
        except (es.IllegalMoveError, ValueError):
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self.es_state.is_terminal()

    def returns(self) -> list[float]:
        return self.es_state.returns()

    def __str__(self) -> str:
        return self.es_state.to_text()


class EurosearchObserver:
    """The PyObserver of a game: the tensor is ``State.observation(player)``."""

    def __init__(self, game: es.Game, params: Any):
        if params:
            raise ValueError(f"observation parameters not supported, got {params}")
        self.tensor = np.zeros(game.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: EurosearchState, player: int) -> None:
        self.tensor[:] = state.es_state.observation(player)

    def string_from(self, state: EurosearchState, player: int) -> str:
        return state.es_state.to_text(viewer=player)


class InformationStateObserver:
    """The perfect-recall PyObserver: a string only (``EurosearchState.information_state``)."""

    def __init__(self, params: Any):
        if params:
            raise ValueError(f"observation parameters not supported, got {params}")
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: EurosearchState, player: int) -> None:
        pass

    def string_from(self, state: EurosearchState, player: int) -> str:
        return state.information_state(player)


#: the pyspiel game class of each game, by eurosearch name
GAME_CLASSES: dict[str, type] = {}

for _name in es.games():
    GAME_CLASSES[_name] = type(f"EurosearchGame_{_name}", (EurosearchGame,), {"name": _name})
    pyspiel.register_game(_game_type(_name, es.game(_name).has_hidden_information), GAME_CLASSES[_name])
