# cython: language_level=3, boundscheck=False, wraparound=False
"""Bindings over the eurosearch C ABI: one Game and one State class for every game.

Nothing here knows a game's rules; it moves integers and byte blobs across the ABI. The
public API (``eurosearch.game``) builds a Game from the game's validated data table.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memcmp
cimport cython

import _signal   # signal's C half: signal.getsignal builds an enum per call (5 us)
import copy
import math
import operator
import threading

import numpy as np

from eurosearch.errors import IllegalMoveError, StateFormatError
from eurosearch.limits import machine_memory

from eurosearch_abi cimport *

CHANCE = ES_CHANCE
TERMINAL = ES_TERMINAL
ABI_VERSION = es_abi_version()
#: the core picks set members with BMI2's pdep on this CPU (else portable code; the same results)
USES_PDEP = bool(es_uses_pdep())


# Ctrl-C during a long native call (a search, playouts). The call runs in C without the GIL,
# where Python's own SIGINT handler only notes the signal for later. So for the length of the
# call a C handler takes SIGINT over and asks the core to stop (es_request_stop); the call
# returns early and KeyboardInterrupt is raised as usual.
cdef extern from *:
    """
    #include <signal.h>
    #include <string.h>
    static struct sigaction es_py_saved_sigint;   /* the action ours replaced */
    static volatile sig_atomic_t es_py_sigint_seen;
    static void es_py_on_sigint(int sig) {
        (void)sig;
        es_py_sigint_seen = 1;
        es_request_stop();
    }
    static int es_py_catch_sigint(void) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = es_py_on_sigint;
        sigemptyset(&sa.sa_mask);
        es_py_sigint_seen = 0;
        return sigaction(SIGINT, &sa, &es_py_saved_sigint) == 0;
    }
    /* Puts the saved action back; 1 if SIGINT came meanwhile. */
    static int es_py_release_sigint(void) {
        sigaction(SIGINT, &es_py_saved_sigint, NULL);
        return es_py_sigint_seen;
    }
    """
    bint es_py_catch_sigint() nogil
    bint es_py_release_sigint() nogil


_MAIN_THREAD = threading.main_thread().ident


cdef bint _catch_ctrl_c() except -1:
    """Before a long native call: True if Ctrl-C now stops it. Only on the main thread (where
    Python handles signals) with Python's default SIGINT handling; calls from other threads
    are not watched, so a Ctrl-C never stops them."""
    if threading.get_ident() != _MAIN_THREAD:
        return False
    if _signal.getsignal(_signal.SIGINT) is not _signal.default_int_handler:
        return False
    es_watch_stops(1)
    if not es_py_catch_sigint():
        es_watch_stops(0)
        return False
    return True


cdef int _release_ctrl_c(bint caught, int rc) except -1:
    """After the call: the previous SIGINT handling back; KeyboardInterrupt if Ctrl-C came
    (whether or not the call had ended by then)."""
    cdef bint seen = False
    if caught:
        seen = es_py_release_sigint()
        es_watch_stops(0)
    if seen or rc == ES_ERR_INTERRUPTED:
        raise KeyboardInterrupt
    return 0


# Limits are checked here, before C sees them: a C integer would overflow (OverflowError with
# no name) or wrap, a NaN would compare false against every clock.
INT64_MAX = 2 ** 63 - 1
INT32_MAX = 2 ** 31 - 1


PHYSICAL_MEMORY = machine_memory()   # bytes of RAM (None where the system does not say)


def _int_in(str name, value, lo, hi):
    """`value` as an int in lo..hi; TypeError for a non-integer, ValueError naming `name`."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}") from None
    if not lo <= v <= hi:
        raise ValueError(f"{name} must be {lo}..{hi}, got {v}")
    return v


def _nonnegative(str name, value, str meaning=""):
    """`value` as a finite float >= 0; ValueError naming `name` for NaN, inf or < 0."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number, got {value!r}")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}") from None
    if not (math.isfinite(v) and v >= 0):
        raise ValueError(f"{name} must be a finite number >= 0{meaning}, got {value!r}")
    return v


def _eval_weights(Game game, eval_weights, double eval_weight):
    """A learned evaluation's weights as contiguous float32, checked against the game."""
    w = np.ascontiguousarray(eval_weights, dtype=np.float32)
    if w.ndim != 1 or w.shape[0] != es_observation_size(game.g):
        raise ValueError(f"mcts eval_weights must be {es_observation_size(game.g)} numbers (the "
                         f"observation size of {game.name} for {game.players} players), got shape {w.shape}")
    if not np.isfinite(w).all() or not math.isfinite(eval_weight):
        raise ValueError("mcts eval_weights and eval_weight must be finite")
    return w


def _memory(str name, nbytes, str what):
    """Refuses a request for more bytes than the machine has."""
    if PHYSICAL_MEMORY is not None and nbytes > PHYSICAL_MEMORY:
        raise ValueError(f"{name}: {what} would take {nbytes} bytes, more than this machine's "
                         f"{PHYSICAL_MEMORY} bytes of memory")

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
    cdef void *moves_of        # the State whose legal moves `moves` holds (NULL: none); see State.apply
    cdef int n_moves_of
    cdef es_move *outcomes
    cdef double *probs
    # The last chance distribution handed to Python, as C arrays and as a tuple of (outcome,
    # probability) tuples: a chance node with the same distribution (every roll of the same
    # dice) returns a copy of that tuple instead of building its pairs again (State.chance_outcomes).
    cdef es_move *seen_outcomes
    cdef double *seen_probs
    cdef int n_seen            # -1: nothing seen yet
    cdef tuple seen_pairs
    cdef readonly str name
    cdef readonly int players
    cdef readonly size_t state_size
    cdef public object data
    cdef public object options
    cdef public object spec
    cdef object _fields   # state_fields(), built once

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
        self.seen_outcomes = <es_move *>malloc(sizeof(es_move) * es_max_chance_outcomes(self.g))
        self.seen_probs = <double *>malloc(sizeof(double) * es_max_chance_outcomes(self.g))
        self.n_seen = -1
        if not self.moves or not self.outcomes or not self.probs or not self.seen_outcomes or not self.seen_probs:
            raise MemoryError()

    def __dealloc__(self):
        free(self.moves)
        free(self.outcomes)
        free(self.probs)
        free(self.seen_outcomes)
        free(self.seen_probs)
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
    def max_chance_outcomes(self) -> int:
        """Upper bound on the length of ``State.chance_outcomes()``."""
        return es_max_chance_outcomes(self.g)

    @property
    def has_hidden_information(self) -> bool:
        """True if players can hold information others cannot see (the game redacts)."""
        return bool(es_has_hidden_information(self.g))

    @property
    def observation_size(self) -> int:
        """Length of ``State.observation(player)``."""
        return es_observation_size(self.g)

    # --- pickling: a game is rebuilt from its name, player count, options and loaded data ---
    def __reduce__(self):
        if self.spec is None:
            raise TypeError("only games made by eurosearch.game() can be pickled")
        from eurosearch.api import _rebuild_game
        return (_rebuild_game, (self.name, self.players, self.data, self.options))

    def __copy__(self):
        return self   # a game does not change once built

    def observation_layout(self) -> list:
        """The named slices of ``State.observation(p)``: (name, offset, shape) in order,
        contiguous from 0 to observation_size; shape is (n,) or (rows, columns). The meaning
        of each slice is documented in docs/<game>_engine.md. NotImplementedError for a game
        that declares no layout."""
        cdef es_obs_slice sl[64]
        cdef int n = es_observation_layout(self.g, sl, 64)
        if n < 0:
            raise NotImplementedError(f"{self.name} declares no observation layout (es_game_def.observation_layout)")
        if n > 64:
            raise RuntimeError(f"{self.name}: more than 64 observation slices")
        out = []
        for i in range(n):
            if sl[i].dim1:
                shape = (sl[i].dim0, sl[i].dim1)
            else:
                shape = (sl[i].dim0,)
            out.append((sl[i].name.decode(), sl[i].offset, shape))
        return out

    # --- the dense action space (es_num_actions: declared by the game's move kinds) ---
    cdef int64_t _actions(self) except -1:
        cdef int64_t n = es_num_actions(self.g)
        if n < 0:
            raise NotImplementedError(f"{self.name} declares no dense action space (es_game_def.move_kinds)")
        return n

    def num_distinct_actions(self) -> int:
        """The size of the game's fixed action space: actions are 0 .. N-1, and every legal
        move of every state is one action (State.move_to_action)."""
        return self._actions()

    def action_to_move(self, action) -> int:
        """The move id of a dense action; ValueError outside 0 .. num_distinct_actions() - 1."""
        cdef int64_t a = _int_in("action", action, 0, self._actions() - 1)
        return es_action_to_move(self.g, a)

    def move_to_action(self, move) -> int:
        """The dense action of a move id; ValueError for an id that is no decision move."""
        self._actions()
        if isinstance(move, bool) or not isinstance(move, int):
            raise TypeError(f"a move is an int, got {type(move).__name__}")
        cdef int64_t a = es_move_to_action(self.g, <es_move>move) if 0 <= move <= INT32_MAX else -1
        if a < 0:
            raise ValueError(f"{move} is no decision move of {self.name}")
        return a

    cdef list _states(self, states):
        out = list(states)
        for s in out:
            if not isinstance(s, State) or (<State>s).game is not self:
                raise ValueError("every state must be a State of this game")
        return out

    def legal_actions_masks(self, states):
        """The legal-action masks of many states as one bool array (len(states), N), in C."""
        cdef int64_t n = self._actions()
        cdef list ss = self._states(states)
        _memory("states", len(ss) * n, "the masks")
        out = np.zeros((len(ss), n), dtype=np.bool_)
        if not ss:
            return out
        cdef uint8_t[:, ::1] view = out.view(np.uint8)
        cdef Py_ssize_t i, k = len(ss)
        cdef uint8_t **bufs = <uint8_t **>malloc(sizeof(uint8_t *) * k)
        cdef int rc = ES_OK
        if bufs == NULL:
            raise MemoryError()
        try:
            for i in range(k):
                bufs[i] = (<State>ss[i]).buf
            with nogil:
                for i in range(k):
                    if es_legal_actions_mask(self.g, bufs[i], &view[i, 0]) != ES_OK:
                        rc = ES_ERR_ARG
                        break
        finally:
            free(bufs)
        if rc != ES_OK:
            raise RuntimeError(f"{self.name}: a legal move matches no declared move kind")
        return out

    def observations(self, states, player):
        """observation(player) of many states as one float32 array (len(states), size), in C."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise ValueError(f"player must be a seat 0..{self.players - 1}, got {player!r}")
        cdef int p = player
        cdef list ss = self._states(states)
        cdef int size = es_observation_size(self.g)
        out = np.zeros((len(ss), size), dtype=np.float32)
        if not ss or size == 0:
            return out
        cdef float[:, ::1] view = out
        cdef Py_ssize_t i, k = len(ss)
        cdef uint8_t **bufs = <uint8_t **>malloc(sizeof(uint8_t *) * k)
        if bufs == NULL:
            raise MemoryError()
        try:
            for i in range(k):
                bufs[i] = (<State>ss[i]).buf
            with nogil:
                for i in range(k):
                    es_observe(self.g, bufs[i], p, &view[i, 0])
        finally:
            free(bufs)
        return out

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
        es_derive(self.g, s.buf)   # the derived caches are rebuilt, never taken from the document
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
        """The state's layout and meaning: (name, offset, type, dim0, dim1, kind, names) per
        field; kind is an es_field_kind (eurosearch.h), names the tuple of its name table's
        entries from this game's data ("" for an unused entry) or None."""
        cdef int n = 0, item
        cdef const es_field_desc *f
        cdef const char *text
        if self._fields is None:
            f = es_state_fields(self.g, &n)
            out = []
            for i in range(n):
                names = None
                if f[i].names != NULL:
                    names = []
                    item = 0
                    while True:
                        text = es_field_item_name(self.g, i, item)
                        if text == NULL:
                            break
                        names.append(text.decode("utf-8", errors="replace"))
                        item += 1
                    names = tuple(names)
                out.append((f[i].name.decode(), f[i].offset, f[i].type, f[i].dim0, f[i].dim1, f[i].kind, names))
            self._fields = out
        return list(self._fields)

    def random_playouts(self, n, seed=0):
        """n uniformly random games run entirely in C; final scores, shape (n, players)."""
        return self.random_playout_stats(n, seed)[0]

    def random_playout_stats(self, n_games, seed=0):
        """(scores array (n, players), decisions taken, chance nodes sampled)."""
        cdef long long n = _int_in("n", n_games, 0, INT64_MAX)
        _memory("n", n * self.players * 8, f"the scores of {n} playouts")
        cdef uint64_t s = _seed64(seed)
        out = np.zeros((n, self.players), dtype=np.float64)
        cdef double[:, ::1] view = out
        cdef int64_t dec = 0, ch = 0
        cdef int rc
        cdef double *p = &view[0, 0] if n else NULL
        cdef bint watched = _catch_ctrl_c()
        with nogil:
            rc = es_random_playouts(self.g, n, s, p, &dec, &ch)
        _release_ctrl_c(watched, rc)
        if rc != ES_OK:
            raise RuntimeError(f"random playouts failed ({rc}): a game exceeded the step limit")
        return out, dec, ch


    def apply_cost(self, states=100_000, seed=0) -> dict:
        """What a checked apply (State.apply of a move not just listed) costs against an
        unchecked one, in C: nanoseconds per action over `states` consecutive nodes of seeded
        random games ({"decision_unchecked_ns", "decision_checked_ns", "chance_unchecked_ns",
        "chance_checked_ns", "decisions", "chance_nodes"}; a kind of node never met gives 0)."""
        cdef int n = _int_in("states", states, 1, 1_000_000)
        _memory("states", n * (self.state_size + 12), f"{n} recorded states")
        cdef uint64_t s = _seed64(seed)
        cdef double out[6]
        cdef int rc
        with nogil:
            rc = es_apply_cost(self.g, n, s, out)
        if rc == ES_ERR_ILLEGAL:
            raise RuntimeError(f"{self.name}: a checked apply refused a legal action (a bug in its is_legal)")
        if rc != ES_OK:
            raise RuntimeError(f"{self.name}: apply_cost failed ({rc})")
        keys = ("decision_unchecked_ns", "decision_checked_ns", "chance_unchecked_ns", "chance_checked_ns",
                "decisions", "chance_nodes")
        return {k: (int(out[i]) if i >= 4 else out[i]) for i, k in enumerate(keys)}


def _rebuild_state(Game game, bytes data):
    """Unpickling a State: its game, then its bytes (checked as state_from_bytes checks)."""
    return game.state_from_bytes(data)


@cython.freelist(64)
cdef class State:
    """One game state: a fixed-size blob owned by this object (clone = memcpy).

    apply() checks a move against the legal moves; in the usual loop (legal_moves, then
    apply one of them; sample_chance, then apply its outcome) the check reuses the list just
    made, or the outcome just sampled, instead of making it again. Any change of the state
    forgets both (_changed)."""

    cdef readonly Game game
    cdef uint8_t *buf
    cdef es_move sampled       # the outcome sample_chance drew at this state ...
    cdef bint sampled_known    # ... while the state is unchanged

    def __dealloc__(self):
        if self.game is not None and self.game.moves_of == <void *>self:
            self.game.moves_of = NULL
        free(self.buf)

    cdef inline void _changed(self):
        self.sampled_known = False
        if self.game.moves_of == <void *>self:
            self.game.moves_of = NULL

    cdef inline void _moves_listed(self, int n):
        self.game.moves_of = <void *>self
        self.game.n_moves_of = n

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
        self._moves_listed(n)
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
        cdef Game g = self.game
        cdef int n = es_chance_outcomes(g.g, self.buf, g.outcomes, g.probs)
        if n == g.n_seen and memcmp(g.outcomes, g.seen_outcomes, n * sizeof(es_move)) == 0 \
                and memcmp(g.probs, g.seen_probs, n * sizeof(double)) == 0:
            return list(g.seen_pairs)
        pairs = [(g.outcomes[i], g.probs[i]) for i in range(n)]
        if n > 0:
            memcpy(g.seen_outcomes, g.outcomes, n * sizeof(es_move))
            memcpy(g.seen_probs, g.probs, n * sizeof(double))
            g.n_seen = n
            g.seen_pairs = tuple(pairs)
        return pairs

    def is_legal(self, move) -> bool:
        """Whether `move` is a legal move here (a decision node) or a possible chance outcome
        (a chance node): membership in legal_moves() / chance_outcomes(), decided by the
        game's own test where it has one, without listing them. False at a terminal node
        and for any int that is no move."""
        if isinstance(move, bool) or not isinstance(move, int):
            raise TypeError(f"a move is an int, got {type(move).__name__}")
        if not -2147483648 <= move <= 2147483647:
            return False
        return es_is_legal(self.game.g, self.buf, <es_move>move) != 0

    def apply(self, move) -> None:
        """Apply a legal move or chance outcome; IllegalMoveError (state unchanged) otherwise."""
        cdef es_move m
        cdef int i
        if isinstance(move, bool) or not isinstance(move, int):
            raise TypeError(f"a move is an int, got {type(move).__name__}")
        if not -2147483648 <= move <= 2147483647:
            raise IllegalMoveError(self._illegal_message(move))
        m = <es_move>move
        if self.sampled_known and m == self.sampled:       # sample_chance drew it here
            es_apply_unchecked(self.game.g, self.buf, m)
            self._changed()
            return
        if self.game.moves_of == <void *>self:              # legal_moves listed this state
            for i in range(self.game.n_moves_of):
                if self.game.moves[i] == m:
                    es_apply_unchecked(self.game.g, self.buf, m)
                    self._changed()
                    return
        if es_apply(self.game.g, self.buf, m) != ES_OK:
            raise IllegalMoveError(self._illegal_message(move))
        self._changed()

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
        self.sampled = es_sample_chance(self.game.g, self.buf, &rng)
        self.sampled_known = True
        return self.sampled

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
        """The text of a legal move or chance outcome of this state (what str_to_move reads);
        IllegalMoveError for any other id: a game's text of a move is only defined where the
        move can be made."""
        cdef char buf[256]
        if isinstance(move, bool) or not isinstance(move, int):
            raise TypeError(f"a move is an int, got {type(move).__name__}")
        if not self._can_apply(move):
            raise IllegalMoveError(self._illegal_message(move))
        es_move_to_str(self.game.g, self.buf, <es_move>move, buf, sizeof(buf))
        return buf.decode(errors="replace")

    cdef bint _can_apply(self, object move):
        """move is one of this state's legal moves or chance outcomes."""
        cdef int i, n
        cdef es_move m
        if not -2147483648 <= move <= 2147483647:
            return False
        m = <es_move>move
        n = es_legal_moves(self.game.g, self.buf, self.game.moves)
        self._moves_listed(n)
        for i in range(n):
            if self.game.moves[i] == m:
                return True
        n = es_chance_outcomes(self.game.g, self.buf, self.game.outcomes, self.game.probs)
        for i in range(n):
            if self.game.outcomes[i] == m:
                return True
        return False

    def move_view(self, move, viewer) -> int:
        """What `viewer` sees of `move` (a legal move or chance outcome here): the move itself
        when viewer can tell it from the others, else the id shared by every move viewer
        cannot tell it from (an opponent's face-down card, a card drawn into another hand).
        IllegalMoveError for a move that is not legal here."""
        cdef int p = self._player(viewer)
        if isinstance(move, bool) or not isinstance(move, int):
            raise TypeError(f"a move is an int, got {type(move).__name__}")
        if not self._can_apply(move):
            raise IllegalMoveError(self._illegal_message(move))
        return es_move_view(self.game.g, self.buf, <es_move>move, p)

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

    def to_json(self, viewer=None, format=None) -> str:
        """The state as a human-readable JSON document (docs/state_json.md): the whole state,
        or with ``viewer=p`` only what player p may see (hidden cards are null and others'
        pending choices blank; such a view cannot be loaded back). ``format=1`` writes the
        old raw layout (every field as the integers of the struct) instead of the current one."""
        from eurosearch import statejson
        if viewer is None:
            return statejson.json_from_raw(self.game, self._raw(), fmt=format)
        cdef int p = self._player(viewer)
        cdef uint8_t *view = <uint8_t *>malloc(self.game.state_size)
        if view == NULL:
            raise MemoryError()
        try:
            es_redact(self.game.g, self.buf, p, view)
            raw = bytes(<uint8_t[:self.game.state_size]>view)
        finally:
            free(view)
        return statejson.json_from_raw(self.game, raw, viewer=p, fmt=format)

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

    # --- pickling and copying: the game (rebuilt, see Game.__reduce__) and the bytes ---
    def __reduce__(self):
        return (_rebuild_state, (self.game, self.to_bytes()))

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()   # the game is shared: it does not change once built

    # --- the dense action space (see Game.num_distinct_actions) ---
    def legal_actions_mask(self):
        """numpy bool array of num_distinct_actions(): True at the actions of the legal moves."""
        return self.game.legal_actions_masks([self])[0]

    def move_to_action(self, move) -> int:
        """The dense action of a move id (Game.move_to_action)."""
        return self.game.move_to_action(move)

    def action_to_move(self, action) -> int:
        """The move id of a dense action (Game.action_to_move)."""
        return self.game.action_to_move(action)

    # --- fast paths for search code (no checks: the move must be legal) ---
    def apply_unchecked(self, int move) -> None:
        es_apply_unchecked(self.game.g, self.buf, move)
        self._changed()

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

    def mcts(self, player, iterations=0, seconds=0.0, exploration=1.4, bint information_sets=False,
             max_nodes=0, seed=0, rollout_depth=0, rollout_policy=0, eval_scale=0.0, worlds=0, threads=1,
             widening=0.0, bint multi_observer=False, eval_weights=None, double eval_weight=0.0,
             greedy_share=0.0):
        """Monte Carlo tree search for `player` (who must be to move), in C.

        Returns (moves, visits, mean returns for player, stats dict). See es_mcts in
        csrc/include/eurosearch.h for the algorithm. worlds = 0 searches this state as it is
        (one tree); worlds = k >= 1 searches k trees, each (in the open mode) on its own
        determinization for `player`, on up to `threads` threads, merged at the root (see
        es_mcts_ensemble): the iteration budget is the total over the trees. widening > 0 turns
        on progressive widening (es_mcts_config.widening). greedy_share in (0, 1) with
        rollout_policy=1 makes each playout decision greedy with that probability and random
        otherwise (0: always greedy). multi_observer (with
        information_sets) keeps one tree per player, so opponents choose their hidden moves by
        their own trees (es_mcts_config.information_sets = 2). eval_weights (observation_size
        floats) with eval_weight replaces the evaluation at a playout's end by a learned one
        (es_eval_model; python/eurosearch/evalmodel.py). A limit that is
        not a count (0 .. 2**63 - 1) or a finite time >= 0, or worlds / threads outside their
        range (0..256, 1..256), raises ValueError naming it."""
        cdef es_mcts_config cfg
        cdef es_search_stats st
        cdef int cap = es_max_moves(self.game.g), n
        cdef int p = self._player(player)
        cfg.iterations = _int_in("iterations", iterations, 0, INT64_MAX)
        cfg.seconds = _nonnegative("seconds", seconds, " (0: no limit)")
        if cfg.iterations == 0 and cfg.seconds == 0:
            raise ValueError("mcts needs iterations > 0 or seconds > 0")
        cfg.exploration = _nonnegative("exploration", exploration)
        cfg.information_sets = (2 if multi_observer else 1) if information_sets else 0
        if multi_observer and not information_sets:
            raise ValueError("mcts: multi_observer needs information_sets=True")
        cfg.max_nodes = _int_in("max_nodes", max_nodes, 0, INT64_MAX)
        cfg.seed = _seed64(seed)
        cfg.rollout_depth = _int_in("rollout_depth", rollout_depth, -1, INT32_MAX)
        cfg.rollout_policy = _int_in("rollout_policy", rollout_policy, 0, 1)
        cfg.greedy_share = _nonnegative("greedy_share", greedy_share, " (0: always greedy)")
        if cfg.greedy_share > 1:
            raise ValueError(f"mcts: greedy_share is a probability 0..1, got {greedy_share!r}")
        cfg.eval_scale = _nonnegative("eval_scale", eval_scale, " (0: the default)")
        cfg.widening = _nonnegative("widening", widening, " (0: off)")
        cfg.eval_model = NULL
        cdef es_eval_model model
        cdef float[::1] weights
        if eval_weights is not None:
            weights = _eval_weights(self.game, eval_weights, eval_weight)
            model.size = weights.shape[0]
            model.weights = &weights[0]
            model.eval_weight = eval_weight
            cfg.eval_model = &model
        cdef int n_worlds = _int_in("worlds", worlds, 0, 256)
        cdef int n_threads = _int_in("threads", threads, 1, 256)
        moves = np.zeros(cap, dtype=np.int32)
        visits = np.zeros(cap, dtype=np.int64)
        values = np.zeros(cap, dtype=np.float64)
        cdef int32_t[::1] mv = moves
        cdef int64_t[::1] vv = visits
        cdef double[::1] va = values
        cdef bint watched = _catch_ctrl_c()
        with nogil:
            if n_worlds == 0:
                n = es_mcts(self.game.g, self.buf, p, &cfg, &mv[0], &vv[0], &va[0], cap, &st)
            else:
                n = es_mcts_ensemble(self.game.g, self.buf, p, &cfg, n_worlds, n_threads, &mv[0], &vv[0],
                                     &va[0], cap, &st)
        _release_ctrl_c(watched, n)
        if n < 0:
            raise ValueError(f"mcts: player {player} is not to move here" if n == ES_ERR_PHASE else f"mcts failed ({n})")
        return (moves[:n].tolist(), visits[:n].tolist(), values[:n].tolist(),
                {"iterations": st.iterations, "nodes": st.nodes, "seconds": st.seconds,
                 "bytes": st.bytes})

    def expectimax(self, depth=0, bint iterative=False, seconds=0.0, max_nodes=0, table_bytes=0,
                   str objective="win", bint paranoid=False, bint pruning=True, bint all_values=True,
                   eval_scale=0.0):
        """Expectimax from this decision node for the player to move, in C.

        depth 0 searches to the end of the game (exact solving); a depth > 0 stops after that
        many turns (a player's consecutive decisions count as one) and uses the game's
        evaluation. Returns (moves, values for the player to move, info dict
        with complete, exact, depth, best, nodes, table_hits, table_bytes, seconds). See
        es_expectimax in csrc/include/eurosearch.h. A limit that is not a count (0 .. 2**63 - 1),
        a finite time >= 0, or a table larger than the machine's memory raises ValueError
        naming it."""
        cdef es_expectimax_config cfg
        cdef es_expectimax_result res
        cdef int cap = es_max_moves(self.game.g), n
        if objective not in ("win", "score"):
            raise ValueError(f"objective must be 'win' or 'score', got {objective!r}")
        cfg.depth = _int_in("depth", depth, 0, INT32_MAX)   # 0: to the end of the game
        cfg.seconds = _nonnegative("seconds", seconds, " (0: no limit)")
        cfg.max_nodes = _int_in("max_nodes", max_nodes, 0, INT64_MAX)
        cfg.table_bytes = _int_in("table_bytes", table_bytes, 0, INT64_MAX)
        _memory("table_bytes", cfg.table_bytes, "the transposition table")
        cfg.eval_scale = _nonnegative("eval_scale", eval_scale, " (0: the default)")
        if es_current_player(self.game.g, self.buf) < 0:
            raise ValueError("expectimax needs a decision node (this state is a chance node or the end)")
        cfg.iterative = iterative
        cfg.objective = 0 if objective == "win" else 1
        cfg.paranoid = paranoid
        cfg.pruning = pruning
        cfg.all_values = all_values
        moves = np.zeros(cap, dtype=np.int32)
        values = np.zeros(cap, dtype=np.float64)
        cdef int32_t[::1] mv = moves
        cdef double[::1] va = values
        cdef bint watched = _catch_ctrl_c()
        with nogil:
            n = es_expectimax(self.game.g, self.buf, &cfg, &mv[0], &va[0], cap, &res)
        _release_ctrl_c(watched, n)
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
        cdef int rc
        es_rng_seed(&rng, _seed64(seed))
        cdef bint watched = _catch_ctrl_c()
        rc = es_random_playout_from(self.game.g, self.buf, &rng, &dec, &ch)   # GIL held: s is written
        self._changed()
        _release_ctrl_c(watched, rc)
        if rc != ES_OK:
            raise RuntimeError("random playout exceeded the step limit")
        return self.scores()
