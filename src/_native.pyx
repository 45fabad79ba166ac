# cython: language_level=3, boundscheck=False, wraparound=False
"""Bindings over the eurosearch C ABI: one Game and one State class for every game.

Nothing here knows a game's rules; it moves integers and byte blobs across the ABI. The
public API (``eurosearch.game``) builds a Game from the game's validated data table.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memcmp

import copy

import numpy as np

from eurosearch.errors import IllegalMoveError, StateFormatError

from eurosearch_abi cimport *

CHANCE = ES_CHANCE
TERMINAL = ES_TERMINAL
ABI_VERSION = es_abi_version()

cdef uint64_t _seed64(object seed) except? 0:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed must be an int, got {type(seed).__name__}")
    return <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)


def rng_below(seed, n) -> int:
    """The first draw in [0, n) of the native generator seeded with `seed` (es_rng_below):
    the index State.random_move(seed) takes in legal_moves()."""
    cdef es_rng rng
    if not 0 < n < 2 ** 32:
        raise ValueError("n must be in 1 .. 2**32 - 1")
    es_rng_seed(&rng, _seed64(seed))
    return es_rng_below(&rng, <uint32_t>n)


def compiled_games():
    """Names of the games compiled into the core."""
    return [es_game_def_at(i).name.decode() for i in range(es_game_count())]


cdef class Game:
    """A game instance: rules + player count + component data + options."""

    cdef es_game *g
    cdef es_move *moves
    cdef es_move *outcomes
    cdef double *probs
    cdef readonly str name
    cdef readonly int players
    cdef readonly size_t state_size
    cdef public object data
    cdef public object options
    cdef public object spec

    def __cinit__(self, str name, int players, table, options):
        cdef char err[512]
        cdef int32_t[::1] t = np.ascontiguousarray(table, dtype=np.int32)
        cdef int32_t[::1] o = np.ascontiguousarray(options, dtype=np.int32)
        err[0] = 0
        self.g = es_game_new(name.encode(), players, &t[0] if t.shape[0] else NULL, t.shape[0],
                             &o[0] if o.shape[0] else NULL, o.shape[0], err, sizeof(err))
        if self.g == NULL:
            raise ValueError(err.decode(errors="replace"))
        self.name = name
        self.players = players
        self.state_size = es_state_size(self.g)
        self.moves = <es_move *>malloc(sizeof(es_move) * es_max_moves(self.g))
        self.outcomes = <es_move *>malloc(sizeof(es_move) * es_max_chance_outcomes(self.g))
        self.probs = <double *>malloc(sizeof(double) * es_max_chance_outcomes(self.g))
        if not self.moves or not self.outcomes or not self.probs:
            raise MemoryError()

    def __dealloc__(self):
        free(self.moves)
        free(self.outcomes)
        free(self.probs)
        if self.g != NULL:
            es_game_free(self.g)

    def __repr__(self):
        return f"<eurosearch game {self.name!r}, {self.players} players>"

    @property
    def fingerprint(self) -> str:
        """The hash of the data table and options (hex): states of another fingerprint are
        foreign to this game. The binary header carries it, and the JSON form too."""
        return f"{self.g.data_fingerprint:016x}"

    @property
    def max_moves(self) -> int:
        return es_max_moves(self.g)

    @property
    def observation_size(self) -> int:
        """Length of ``State.observation(player)``."""
        return es_observation_size(self.g)

    def data_sources(self) -> dict:
        """How sure the component data is: counts of entries per source tag."""
        return copy.deepcopy(self.data.sources)

    cdef State _blank(self):
        cdef State s = State.__new__(State)
        s.game = self
        s.buf = <uint8_t *>malloc(self.state_size)
        if s.buf == NULL:
            raise MemoryError()
        return s

    def initial_state(self) -> State:
        """The state before any setup chance is resolved."""
        cdef State s = self._blank()
        es_init(self.g, s.buf)
        return s

    def new_state(self, seed=None) -> State:
        """A new game. With a seed, the setup chance nodes are resolved with it, so the state
        is at the first decision; without, it stops at the first setup chance node."""
        cdef State s = self.initial_state()
        cdef es_rng rng
        if seed is not None:
            es_rng_seed(&rng, _seed64(seed))
            while es_current_player(self.g, s.buf) == ES_CHANCE:
                es_apply_unchecked(self.g, s.buf, es_sample_chance(self.g, s.buf, &rng))
        return s

    def state_from_bytes(self, data) -> State:
        """Rebuild a state from ``State.to_bytes()``; StateFormatError for bad bytes."""
        cdef char err[512]
        cdef const uint8_t[::1] b
        try:
            b = memoryview(data).cast("B")
        except TypeError:
            raise StateFormatError(f"expected bytes, got {type(data).__name__}") from None
        cdef State s = self._blank()
        err[0] = 0
        if b.shape[0] == 0 or es_decode(self.g, &b[0], b.shape[0], s.buf, err, sizeof(err)) != ES_OK:
            raise StateFormatError(err.decode(errors="replace") or "empty input")
        return s

    def _from_raw(self, raw) -> State:
        """A state from a raw struct blob (as the JSON form builds it), validated."""
        cdef char err[512]
        cdef const uint8_t[::1] b = memoryview(raw).cast("B")
        if b.shape[0] != self.state_size:
            raise StateFormatError(f"a {self.name} state has {self.state_size} bytes, got {b.shape[0]}")
        cdef State s = self._blank()
        memcpy(s.buf, &b[0], self.state_size)
        err[0] = 0
        if es_validate(self.g, s.buf, err, sizeof(err)) != ES_OK:
            raise StateFormatError(err.decode(errors="replace"))
        return s

    def state_from_json(self, text) -> State:
        """Rebuild a state from ``State.to_json()``; StateFormatError for a bad document."""
        from eurosearch import statejson
        if not isinstance(text, str):
            raise StateFormatError(f"expected a JSON string, got {type(text).__name__}")
        return self._from_raw(statejson.raw_from_json(self, text))

    def state_fields(self) -> list:
        """The state's layout: (name, offset, type, dim0, dim1) per field."""
        cdef int n = 0
        cdef const es_field_desc *f = es_state_fields(self.g, &n)
        return [(f[i].name.decode(), f[i].offset, f[i].type, f[i].dim0, f[i].dim1) for i in range(n)]

    def random_playouts(self, long long n, seed=0):
        """n uniformly random games run entirely in C; final scores, shape (n, players)."""
        return self.random_playout_stats(n, seed)[0]

    def random_playout_stats(self, long long n, seed=0):
        """(scores array (n, players), decisions taken, chance nodes sampled)."""
        if n < 0:
            raise ValueError("n must be >= 0")
        cdef uint64_t s = _seed64(seed)
        out = np.zeros((n, self.players), dtype=np.float64)
        cdef double[:, ::1] view = out
        cdef int64_t dec = 0, ch = 0
        cdef int rc
        cdef double *p = &view[0, 0] if n else NULL
        with nogil:
            rc = es_random_playouts(self.g, n, s, p, &dec, &ch)
        if rc != ES_OK:
            raise RuntimeError(f"random playouts failed ({rc}): a game exceeded the step limit")
        return out, dec, ch


cdef class State:
    """One game state: a fixed-size blob owned by this object (clone = memcpy)."""

    cdef readonly Game game
    cdef uint8_t *buf

    def __dealloc__(self):
        free(self.buf)

    @property
    def current_player(self) -> int:
        """The seat to move (>= 0), CHANCE (-1) or TERMINAL (-2)."""
        return es_current_player(self.game.g, self.buf)

    def is_chance(self) -> bool:
        return es_current_player(self.game.g, self.buf) == ES_CHANCE

    def is_terminal(self) -> bool:
        return es_current_player(self.game.g, self.buf) == ES_TERMINAL

    def legal_moves(self) -> list:
        """Legal moves at a decision node (empty at chance and terminal nodes)."""
        cdef int n = es_legal_moves(self.game.g, self.buf, self.game.moves)
        return [self.game.moves[i] for i in range(n)]

    def random_move(self, seed) -> int:
        """A uniformly random legal move, drawn as the native random playouts draw theirs:
        legal_moves()[k] for k uniform from a generator seeded with `seed` (see
        rng_below), without building the list where the game can."""
        cdef es_rng rng
        cdef int n = 0
        if es_current_player(self.game.g, self.buf) < 0:
            raise ValueError("random_move needs a decision node")
        es_rng_seed(&rng, _seed64(seed))
        cdef es_move m = es_random_move(self.game.g, self.buf, &rng, &n)
        if n <= 0:
            raise RuntimeError("no legal move at a decision node")
        return m

    def chance_outcomes(self) -> list:
        """(outcome, probability) pairs at a chance node; the probabilities sum to 1."""
        cdef int n = es_chance_outcomes(self.game.g, self.buf, self.game.outcomes, self.game.probs)
        return [(self.game.outcomes[i], self.game.probs[i]) for i in range(n)]

    def apply(self, move) -> None:
        """Apply a legal move or chance outcome; IllegalMoveError (state unchanged) otherwise."""
        if isinstance(move, bool) or not isinstance(move, int):
            raise TypeError(f"a move is an int, got {type(move).__name__}")
        if not -2147483648 <= move <= 2147483647 or \
                es_apply(self.game.g, self.buf, <es_move>move) != ES_OK:
            raise IllegalMoveError(self._illegal_message(move))

    def _illegal_message(self, move) -> str:
        cp = self.current_player
        if cp == ES_TERMINAL:
            return f"illegal move {move}: the game is over"
        kind = "chance outcome" if cp == ES_CHANCE else f"move for player {cp}"
        return f"illegal {kind} {move}"

    def sample_chance(self, seed) -> int:
        """One chance outcome drawn with the exact probabilities (apply it yourself)."""
        cdef es_rng rng
        if es_current_player(self.game.g, self.buf) != ES_CHANCE:
            raise ValueError("sample_chance: not a chance node")
        es_rng_seed(&rng, _seed64(seed))
        return es_sample_chance(self.game.g, self.buf, &rng)

    def clone(self) -> State:
        cdef State s = self.game._blank()
        memcpy(s.buf, self.buf, self.game.state_size)
        return s

    def hash(self) -> int:
        return es_hash(self.game.g, self.buf)

    def scores(self) -> list:
        """Every player's score (VP); final once the game is over."""
        cdef double out[16]
        es_scores(self.game.g, self.buf, out)
        return [out[i] for i in range(self.game.players)]

    def returns(self) -> list:
        """0 for everyone until the game is over; then winners share 1."""
        cdef double out[16]
        es_returns(self.game.g, self.buf, out)
        return [out[i] for i in range(self.game.players)]

    cdef int _player(self, object player) except -1:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.game.players:
            raise ValueError(f"player must be a seat 0..{self.game.players - 1}, got {player!r}")
        return player

    def determinize(self, player, seed) -> State:
        """A full state consistent with what `player` has seen (unknowns resampled)."""
        cdef es_rng rng
        cdef int p = self._player(player)
        cdef State s = self.clone()
        es_rng_seed(&rng, _seed64(seed))
        es_determinize(self.game.g, s.buf, p, &rng)
        return s

    def observation(self, player):
        """What `player` may see, as a float32 vector of fixed length per game and count."""
        cdef int p = self._player(player)
        out = np.zeros(es_observation_size(self.game.g), dtype=np.float32)
        cdef float[::1] view = out
        es_observe(self.game.g, self.buf, p, &view[0])
        return out

    def move_to_str(self, move) -> str:
        cdef char buf[256]
        if isinstance(move, bool) or not isinstance(move, int) or not -2147483648 <= move <= 2147483647:
            raise ValueError(f"not a move id: {move!r}")
        es_move_to_str(self.game.g, self.buf, <es_move>move, buf, sizeof(buf))
        return buf.decode(errors="replace")

    def str_to_move(self, text) -> int:
        """The legal move (or chance outcome) written as `text`; IllegalMoveError if none."""
        cdef es_move m = 0
        if not isinstance(text, str):
            raise TypeError(f"a move text is a str, got {type(text).__name__}")
        try:
            raw = text.encode()
        except UnicodeEncodeError:
            raise IllegalMoveError(f"no legal move reads {text!r} here") from None
        if b"\0" in raw or es_str_to_move(self.game.g, self.buf, raw, &m) != ES_OK:
            raise IllegalMoveError(f"no legal move reads {text!r} here")
        return m

    def to_bytes(self) -> bytes:
        cdef size_t n = es_encoded_size(self.game.g)
        out = bytearray(n)
        cdef uint8_t[::1] view = out
        es_encode(self.game.g, self.buf, &view[0], n)
        return bytes(out)

    def _raw(self) -> bytes:
        return bytes(<uint8_t[:self.game.state_size]>self.buf)

    def to_json(self, viewer=None) -> str:
        """The state as a human-readable JSON document: the whole state, or with
        ``viewer=p`` only what player p may see (hidden cards have location 255 and
        others' pending choices are blank; such a view cannot be loaded back)."""
        from eurosearch import statejson
        if viewer is None:
            return statejson.json_from_raw(self.game, self._raw())
        cdef int p = self._player(viewer)
        cdef uint8_t *view = <uint8_t *>malloc(self.game.state_size)
        if view == NULL:
            raise MemoryError()
        try:
            es_redact(self.game.g, self.buf, p, view)
            raw = bytes(<uint8_t[:self.game.state_size]>view)
        finally:
            free(view)
        return statejson.json_from_raw(self.game, raw, viewer=p)

    def __str__(self):
        """The whole state as text; in a game with hidden information the omniscient view
        (every hidden card shown, first line says so): ``to_text(viewer=p)`` for a player's."""
        return self.to_text()

    def to_text(self, viewer=None) -> str:
        """A readable board: with ``viewer=p`` only what player p may see (hidden cards as
        counts), without it everything (labelled as the omniscient view where cards are hidden)."""
        cdef int n = 16384, p = -1
        if viewer is not None:
            p = self._player(viewer)
        cdef char *buf = <char *>malloc(n)
        if buf == NULL:
            raise MemoryError()
        try:
            if p >= 0:
                es_render_view(self.game.g, self.buf, p, buf, n)
                return f"view of player {p}\n" + buf.decode(errors="replace")
            es_render(self.game.g, self.buf, buf, n)
            text = buf.decode(errors="replace")
        finally:
            free(buf)
        if es_has_hidden_information(self.game.g):
            text = "omniscient view: every hidden card is shown (to_text(viewer=p) shows what p sees)\n" + text
        return text

    def __repr__(self):
        return f"<{self.game.name} state, player {self.current_player}>"

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        cdef State o = other
        return o.game is self.game and memcmp(o.buf, self.buf, self.game.state_size) == 0

    __hash__ = None

    def __reduce__(self):
        raise TypeError("pickle a state through to_bytes() and Game.state_from_bytes()")

    # --- fast paths for search code (no checks: the move must be legal) ---
    def apply_unchecked(self, int move) -> None:
        es_apply_unchecked(self.game.g, self.buf, move)

    def evaluate(self) -> list:
        """The game's static estimate of each player's final score (higher is better)."""
        cdef double out[16]
        es_evaluate(self.game.g, self.buf, out)
        return [out[i] for i in range(self.game.players)]

    def heuristic_move(self, seed=0) -> int:
        """The greedy move: best evaluation margin over the strongest opponent after one ply."""
        cdef es_rng rng
        if es_current_player(self.game.g, self.buf) < 0:
            raise ValueError("heuristic_move: not a decision node")
        es_rng_seed(&rng, _seed64(seed))
        return es_heuristic_move(self.game.g, self.buf, &rng)

    def mcts(self, int player, long long iterations=0, double seconds=0.0, double exploration=1.4,
             bint information_sets=False, long long max_nodes=0, seed=0, int rollout_depth=0,
             int rollout_policy=0, double eval_scale=0.0):
        """Monte Carlo tree search for `player` (who must be to move), in C.

        Returns (moves, visits, mean returns for player, stats dict). See es_mcts in
        csrc/include/eurosearch.h for the algorithm."""
        cdef es_mcts_config cfg
        cdef es_search_stats st
        cdef int cap = es_max_moves(self.game.g), n
        if iterations <= 0 and seconds <= 0:
            raise ValueError("mcts needs iterations > 0 or seconds > 0")
        cfg.iterations = iterations
        cfg.seconds = seconds
        cfg.exploration = exploration
        cfg.information_sets = information_sets
        cfg.max_nodes = max_nodes
        cfg.seed = _seed64(seed)
        cfg.rollout_depth = rollout_depth
        cfg.rollout_policy = rollout_policy
        cfg.eval_scale = eval_scale
        moves = np.zeros(cap, dtype=np.int32)
        visits = np.zeros(cap, dtype=np.int64)
        values = np.zeros(cap, dtype=np.float64)
        cdef int32_t[::1] mv = moves
        cdef int64_t[::1] vv = visits
        cdef double[::1] va = values
        with nogil:
            n = es_mcts(self.game.g, self.buf, player, &cfg, &mv[0], &vv[0], &va[0], cap, &st)
        if n < 0:
            raise ValueError(f"mcts: player {player} is not to move here" if n == ES_ERR_PHASE else f"mcts failed ({n})")
        return (moves[:n].tolist(), visits[:n].tolist(), values[:n].tolist(),
                {"iterations": st.iterations, "nodes": st.nodes, "seconds": st.seconds})

    def expectimax(self, int depth=0, bint iterative=False, double seconds=0.0, long long max_nodes=0,
                   long long table_bytes=0, str objective="win", bint paranoid=False, bint pruning=True,
                   bint all_values=True, double eval_scale=0.0):
        """Expectimax from this decision node for the player to move, in C.

        depth 0 searches to the end of the game (exact solving); a depth > 0 stops after that
        many turns (a player's consecutive decisions count as one) and uses the game's
        evaluation. Returns (moves, values for the player to move, info dict
        with complete, exact, depth, best, nodes, table_hits, table_bytes, seconds). See
        es_expectimax in csrc/include/eurosearch.h."""
        cdef es_expectimax_config cfg
        cdef es_expectimax_result res
        cdef int cap = es_max_moves(self.game.g), n
        if objective not in ("win", "score"):
            raise ValueError(f"objective must be 'win' or 'score', got {objective!r}")
        if depth < 0:
            raise ValueError("depth must be 0 (to the end of the game) or a number of turns")
        if es_current_player(self.game.g, self.buf) < 0:
            raise ValueError("expectimax needs a decision node (this state is a chance node or the end)")
        cfg.depth = depth
        cfg.iterative = iterative
        cfg.seconds = seconds
        cfg.max_nodes = max_nodes
        cfg.table_bytes = table_bytes
        cfg.objective = 0 if objective == "win" else 1
        cfg.paranoid = paranoid
        cfg.pruning = pruning
        cfg.all_values = all_values
        cfg.eval_scale = eval_scale
        moves = np.zeros(cap, dtype=np.int32)
        values = np.zeros(cap, dtype=np.float64)
        cdef int32_t[::1] mv = moves
        cdef double[::1] va = values
        with nogil:
            n = es_expectimax(self.game.g, self.buf, &cfg, &mv[0], &va[0], cap, &res)
        if n < 0:
            raise MemoryError("expectimax: cannot allocate the transposition table") if n == ES_ERR_LIMIT \
                else ValueError(f"expectimax failed ({n})")
        info = {"complete": bool(res.complete), "exact": bool(res.exact), "depth": res.depth,
                "best": res.best if res.complete else None, "nodes": res.nodes, "table_hits": res.table_hits,
                "table_bytes": res.table_bytes, "seconds": res.seconds}
        return moves[:n].tolist(), values[:n].tolist(), info

    def random_playout(self, seed) -> list:
        """Play this state to the end with uniformly random moves, in C; final scores."""
        cdef es_rng rng
        cdef int64_t dec = 0, ch = 0
        es_rng_seed(&rng, _seed64(seed))
        if es_random_playout_from(self.game.g, self.buf, &rng, &dec, &ch) != ES_OK:
            raise RuntimeError("random playout exceeded the step limit")
        return self.scores()
