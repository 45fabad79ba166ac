"""The C ABI of eurosearch.h through cffi (ABI mode, no compiler, no Cython).

The prototypes below are written by hand, as the header spells them; a test checks that each
one still appears verbatim in the installed header, so that a change of the ABI cannot make
these tests silently call a function with the wrong signature.
"""

from __future__ import annotations

import random
import re

import pytest

cffi = pytest.importorskip("cffi")

import eurosearch as es  # noqa: E402
from eurosearch.games import vienna, vienna_data  # noqa: E402

PROTOTYPES = """
int es_abi_version(void);
int es_uses_pdep(void);
int es_game_count(void);
es_game *es_game_new(const char *name, int players, const int32_t *table, size_t table_len, const int32_t *options, size_t n_options, char *err, size_t errlen);
void es_game_free(es_game *g);
size_t es_state_size(const es_game *g);
int es_max_moves(const es_game *g);
int es_max_chance_outcomes(const es_game *g);
int es_observation_size(const es_game *g);
int es_players(const es_game *g);
void es_init(const es_game *g, void *s);
int es_current_player(const es_game *g, const void *s);
int es_legal_moves(const es_game *g, const void *s, es_move *out);
int es_chance_outcomes(const es_game *g, const void *s, es_move *out, double *prob);
int es_apply(const es_game *g, void *s, es_move m);
es_move es_sample_chance(const es_game *g, const void *s, es_rng *rng);
void es_scores(const es_game *g, const void *s, double *out);
void es_returns(const es_game *g, const void *s, double *out);
uint64_t es_hash(const es_game *g, const void *s);
void es_clone(const es_game *g, void *dst, const void *src);
int es_observe(const es_game *g, const void *s, int player, float *out);
int es_move_to_str(const es_game *g, const void *s, es_move m, char *buf, size_t cap);
int es_str_to_move(const es_game *g, const void *s, const char *text, es_move *out);
size_t es_encoded_size(const es_game *g);
int es_encode(const es_game *g, const void *s, uint8_t *buf, size_t cap);
int es_decode(const es_game *g, const uint8_t *buf, size_t len, void *s, char *err, size_t errlen);
void es_rng_seed(es_rng *r, uint64_t seed);
uint32_t es_rng_below(es_rng *r, uint32_t n);
es_move es_random_move(const es_game *g, const void *s, es_rng *rng, int *count);
int es_random_playout_from(const es_game *g, void *s, es_rng *rng, int64_t *decisions, int64_t *chance);
int es_random_play(const es_game *g, void *s, es_rng *rng, int64_t max_decisions, int64_t *decisions, int64_t *chance);
int es_random_playouts(const es_game *g, int64_t n, uint64_t seed, double *scores_out, int64_t *decisions_out, int64_t *chance_out);
void es_request_stop(void);
void es_watch_stops(int on);
"""

CDEF = """
typedef int32_t es_move;
typedef struct es_rng { uint64_t s[4]; } es_rng;
typedef struct es_game es_game;
""" + PROTOTYPES

ffi = cffi.FFI()
ffi.cdef(CDEF)
lib = ffi.dlopen(str(es.library_path()))

HEADER = (es.include_dir() / "eurosearch.h").read_text()


def _defines() -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r"#define\s+(ES_\w+)\s+\(?(-?\d+)\)?", HEADER)}


D = _defines()
ES_OK, ES_ERR_ILLEGAL, ES_ERR_FORMAT, ES_ERR_BUFFER = D["ES_OK"], D["ES_ERR_ILLEGAL"], D["ES_ERR_FORMAT"], D["ES_ERR_BUFFER"]
ES_CHANCE, ES_TERMINAL = D["ES_CHANCE"], D["ES_TERMINAL"]

OPTIONS = vienna.ViennaOptions(start_player=0)


class CGame:
    """An es_game built through the ABI, with the buffers a caller needs."""

    def __init__(self, players: int = 3, options=OPTIONS):
        table = vienna_data.to_table(vienna_data.load())
        opts = vienna.option_array(options)
        self.table = ffi.new("int32_t[]", table)
        self.opts = ffi.new("int32_t[]", opts)
        err = ffi.new("char[512]")
        g = lib.es_game_new(b"vienna", players, self.table, len(table), self.opts, len(opts), err, 512)
        assert g != ffi.NULL, ffi.string(err).decode()
        self.g = ffi.gc(g, lib.es_game_free)
        self.players = players
        self.size = lib.es_state_size(self.g)
        self.moves = ffi.new("es_move[]", lib.es_max_moves(self.g))
        self.outcomes = ffi.new("es_move[]", lib.es_max_chance_outcomes(self.g))
        self.probs = ffi.new("double[]", lib.es_max_chance_outcomes(self.g))

    def new(self):
        s = ffi.new("uint8_t[]", self.size)
        lib.es_init(self.g, s)
        return s

    def raw(self, s) -> bytes:
        return bytes(ffi.buffer(s, self.size))

    def legal(self, s) -> list[int]:
        n = lib.es_legal_moves(self.g, s, self.moves)
        return [self.moves[i] for i in range(n)]

    def chance(self, s) -> list[tuple[int, float]]:
        n = lib.es_chance_outcomes(self.g, s, self.outcomes, self.probs)
        return [(self.outcomes[i], self.probs[i]) for i in range(n)]

    def scores(self, s) -> list[float]:
        out = ffi.new("double[]", self.players)
        lib.es_scores(self.g, s, out)
        return list(out)

    def returns(self, s) -> list[float]:
        out = ffi.new("double[]", self.players)
        lib.es_returns(self.g, s, out)
        return list(out)

    def encode(self, s) -> bytes:
        n = lib.es_encoded_size(self.g)
        buf = ffi.new("uint8_t[]", n)
        written = lib.es_encode(self.g, s, buf, n)
        assert written == n
        return bytes(ffi.buffer(buf, n))

    def move_str(self, s, m) -> str:
        buf = ffi.new("char[256]")
        lib.es_move_to_str(self.g, s, m, buf, 256)
        return ffi.string(buf).decode()

    def sample(self, s, seed: int) -> int:
        rng = ffi.new("es_rng *")
        lib.es_rng_seed(rng, seed)
        return lib.es_sample_chance(self.g, s, rng)


def _norm(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"\s+", " ", text).replace("( ", "(").replace(" )", ")").strip()


# ----------------------------------------------------------------------------- header


def test_header_and_library_are_installed():
    assert es.library_path().is_file()
    assert (es.include_dir() / "eurosearch.h").is_file()
    assert lib.es_abi_version() == D["ES_ABI_VERSION"] == 9
    assert lib.es_game_count() >= 1
    assert lib.es_uses_pdep() == es._native.USES_PDEP   # the library and the extension share the core


def test_declared_prototypes_match_the_header():
    header = _norm(HEADER)
    for proto in filter(None, (p.strip() for p in PROTOTYPES.splitlines())):
        assert _norm(proto) in header, f"prototype not in eurosearch.h: {proto}"


def test_header_constants_match_the_python_api():
    assert ES_CHANCE == es.CHANCE == -1
    assert ES_TERMINAL == es.TERMINAL == -2
    assert ES_OK == 0 and ES_ERR_ILLEGAL < 0 and ES_ERR_FORMAT < 0 and ES_ERR_BUFFER < 0


# ----------------------------------------------------------------------------- game creation


@pytest.mark.parametrize("players", [2, 6, 0, -3])
def test_bad_player_count_returns_null_with_message(players):
    table = vienna_data.to_table(vienna_data.load())
    t = ffi.new("int32_t[]", table)
    err = ffi.new("char[512]")
    g = lib.es_game_new(b"vienna", players, t, len(table), ffi.NULL, 0, err, 512)
    assert g == ffi.NULL
    msg = ffi.string(err).decode()
    assert "3" in msg and "5" in msg and str(players) in msg, msg


def test_unknown_game_returns_null_with_message():
    err = ffi.new("char[512]")
    g = lib.es_game_new(b"nosuchgame", 3, ffi.NULL, 0, ffi.NULL, 0, err, 512)
    assert g == ffi.NULL
    assert "nosuchgame" in ffi.string(err).decode()


def test_bad_table_and_options_return_null_with_message():
    table = vienna_data.to_table(vienna_data.load())
    err = ffi.new("char[512]")
    short = ffi.new("int32_t[]", table[:-1])
    assert lib.es_game_new(b"vienna", 3, short, len(table) - 1, ffi.NULL, 0, err, 512) == ffi.NULL
    assert ffi.string(err).decode()
    t = ffi.new("int32_t[]", table)
    opts = ffi.new("int32_t[]", [0, 0, 1])   # wrong option count
    err = ffi.new("char[512]")
    assert lib.es_game_new(b"vienna", 3, t, len(table), opts, 3, err, 512) == ffi.NULL
    assert "option" in ffi.string(err).decode()
    bad = ffi.new("int32_t[]", [7, 0, 1, 0, 100])   # start player 7 in a 3-player game
    err = ffi.new("char[512]")
    assert lib.es_game_new(b"vienna", 3, t, len(table), bad, 5, err, 512) == ffi.NULL
    assert "start_player" in ffi.string(err).decode()


def test_game_dimensions_agree_with_python():
    cg = CGame(3)
    pg = es.game("vienna", players=3, options={"start_player": 0})
    assert cg.size == pg.state_size
    assert lib.es_max_moves(cg.g) == pg.max_moves
    assert lib.es_observation_size(cg.g) == pg.observation_size
    assert lib.es_players(cg.g) == 3


# ----------------------------------------------------------------------------- play in lockstep


def _assert_same_node(cg, s, ps, step):
    cp = lib.es_current_player(cg.g, s)
    assert cp == ps.current_player, f"step {step}: current player"
    assert sorted(cg.legal(s)) == sorted(ps.legal_moves()), f"step {step}: legal moves"
    assert sorted(cg.chance(s)) == sorted(ps.chance_outcomes()), f"step {step}: chance outcomes"
    assert cg.scores(s) == ps.scores(), f"step {step}: scores"
    assert cg.returns(s) == ps.returns(), f"step {step}: returns"
    assert lib.es_hash(cg.g, s) == ps.hash(), f"step {step}: hash"
    assert cg.encode(s) == ps.to_bytes(), f"step {step}: encoding"
    return cp


@pytest.mark.parametrize("players, seed", [(3, 1), (3, 2), (4, 3), (5, 4)])
def test_c_abi_and_python_agree_over_a_seeded_game(players, seed):
    cg = CGame(players)
    pg = es.game("vienna", players=players, options={"start_player": 0})
    s = cg.new()
    # the C-initialised state, loaded through the Python API, is Python's initial state
    ps = pg.state_from_bytes(cg.encode(s))
    assert ps == pg.initial_state()
    rng = random.Random(seed)
    obs = ffi.new("float[]", pg.observation_size)
    step = 0
    while True:
        cp = _assert_same_node(cg, s, ps, step)
        if cp == ES_TERMINAL:
            assert abs(sum(cg.returns(s)) - 1) < 1e-12
            assert lib.es_apply(cg.g, s, 1) == ES_ERR_ILLEGAL
            break
        if step % 17 == 0:
            for p in range(players):
                assert lib.es_observe(cg.g, s, p, obs) == ES_OK
                assert list(obs) == ps.observation(p).tolist()
        if cp == ES_CHANCE:
            seed64 = rng.getrandbits(64)
            m = cg.sample(s, seed64)
            assert m == ps.sample_chance(seed64)
            assert m in {o for o, _ in cg.chance(s)}
        else:
            moves = cg.legal(s)
            m = moves[rng.randrange(len(moves))]
        text = cg.move_str(s, m)
        assert text == ps.move_to_str(m)
        out = ffi.new("es_move *")
        assert lib.es_str_to_move(cg.g, s, text.encode(), out) == ES_OK and out[0] == m
        # an illegal move is refused and leaves every byte as it was
        before = cg.raw(s)
        legal = set(cg.legal(s)) | {o for o, _ in cg.chance(s)}
        for bad in (0, -1, m | (1 << 29), 2**31 - 1):
            if bad not in legal:
                assert lib.es_apply(cg.g, s, bad) == ES_ERR_ILLEGAL
                assert cg.raw(s) == before
        # a clone by memcpy (and by es_clone) is an independent state
        clone = ffi.new("uint8_t[]", cg.size)
        ffi.memmove(clone, s, cg.size)
        clone2 = ffi.new("uint8_t[]", cg.size)
        lib.es_clone(cg.g, clone2, s)
        assert cg.raw(clone2) == before
        assert lib.es_apply(cg.g, clone, m) == ES_OK
        assert cg.raw(s) == before
        assert lib.es_apply(cg.g, s, m) == ES_OK
        assert cg.raw(clone) == cg.raw(s)
        ps.apply(m)
        # the C state, encoded, loads through the Python API as the Python state
        assert pg.state_from_bytes(cg.encode(s)) == ps
        step += 1
        assert step < 20000
    assert step > 100


def test_encode_buffer_too_small_and_decode_errors():
    cg = CGame(3)
    s = cg.new()
    n = lib.es_encoded_size(cg.g)
    small = ffi.new("uint8_t[]", n - 1)
    assert lib.es_encode(cg.g, s, small, n - 1) == ES_ERR_BUFFER
    good = cg.encode(s)
    out = ffi.new("uint8_t[]", cg.size)
    err = ffi.new("char[512]")
    buf = ffi.new("uint8_t[]", good)
    assert lib.es_decode(cg.g, buf, len(good), out, err, 512) == ES_OK
    assert cg.raw(out) == cg.raw(s)
    marker = bytes([0xAB]) * cg.size
    for bad in (good[:-1], good[:10], good + b"\0", bytes([good[0] ^ 1]) + good[1:],
                good[:40] + bytes([good[40] ^ 0x10]) + good[41:]):
        ffi.memmove(out, marker, cg.size)
        err = ffi.new("char[512]")
        b = ffi.new("uint8_t[]", bad)
        assert lib.es_decode(cg.g, b, len(bad), out, err, 512) == ES_ERR_FORMAT
        assert ffi.string(err).decode(), "no error message"
        assert cg.raw(out) == marker, "a failed decode wrote into the state"


def test_decode_rejects_other_options():
    a, b = CGame(3), CGame(3, vienna.ViennaOptions(start_player=1))
    s = a.new()
    enc = a.encode(s)
    out = ffi.new("uint8_t[]", b.size)
    err = ffi.new("char[512]")
    assert lib.es_decode(b.g, ffi.new("uint8_t[]", enc), len(enc), out, err, 512) == ES_ERR_FORMAT
    with pytest.raises(es.StateFormatError):
        es.game("vienna", players=3, options={"start_player": 1}).state_from_bytes(enc)


def test_node_kind_queries():
    cg = CGame(3, vienna.ViennaOptions())   # start player by chance
    s = cg.new()
    assert lib.es_current_player(cg.g, s) == ES_CHANCE
    assert lib.es_legal_moves(cg.g, s, cg.moves) == 0
    co = cg.chance(s)
    assert len(co) == 3 and abs(sum(p for _, p in co) - 1) < 1e-12
    assert lib.es_apply(cg.g, s, co[0][0]) == ES_OK
    assert lib.es_current_player(cg.g, s) >= 0
    assert lib.es_chance_outcomes(cg.g, s, cg.outcomes, cg.probs) == 0
    assert lib.es_observe(cg.g, s, 3, ffi.new("float[]", lib.es_observation_size(cg.g))) != ES_OK


def test_random_move_through_the_abi_is_the_listed_move_at_the_drawn_index():
    """es_random_move (Vienna draws it without the list in a turn) against es_legal_moves
    indexed by es_rng_below from a generator seeded the same, over a whole seeded game."""
    cg = CGame(3)
    s = cg.new()
    rng = random.Random(4)
    count = ffi.new("int *")
    a, b = ffi.new("es_rng *"), ffi.new("es_rng *")
    decisions = 0
    while lib.es_current_player(cg.g, s) != ES_TERMINAL:
        if lib.es_current_player(cg.g, s) == ES_CHANCE:
            assert lib.es_apply(cg.g, s, cg.sample(s, rng.getrandbits(64))) == ES_OK
            continue
        legal = cg.legal(s)
        seed = rng.getrandbits(64)
        lib.es_rng_seed(a, seed)
        lib.es_rng_seed(b, seed)
        m = lib.es_random_move(cg.g, s, a, count)
        assert count[0] == len(legal) and m == legal[lib.es_rng_below(b, len(legal))]
        assert lib.es_apply(cg.g, s, legal[rng.randrange(len(legal))]) == ES_OK
        decisions += 1
    assert decisions > 100


# ----------------------------------------------------------------------------- random play


def _native_game(name: str, players: int):
    """Any game with its bundled data and default options, made through the ABI."""
    spec = es.game_spec(name)
    opts = spec.parse_options(None, players)
    loaded = spec.load_data(None, opts)
    table, options = spec.table(loaded), spec.option_array(opts)
    keep = ffi.new("int32_t[]", table), ffi.new("int32_t[]", options)
    err = ffi.new("char[512]")
    g = lib.es_game_new(name.encode(), players, keep[0], len(table), keep[1], len(options), err, 512)
    assert g != ffi.NULL, ffi.string(err).decode()
    return ffi.gc(g, lib.es_game_free), keep


def _play_step_by_step(g, s, rng, max_decisions: int) -> tuple[int, int]:
    """es_random_play's contract written out over the single-step calls: at a decision
    es_random_move, at a chance node es_sample_chance, both from one generator; (decisions,
    chance events)."""
    decisions = chance = 0
    count = ffi.new("int *")
    while max_decisions < 0 or decisions < max_decisions:
        cp = lib.es_current_player(g, s)
        if cp == ES_TERMINAL:
            break
        if cp == ES_CHANCE:
            m = lib.es_sample_chance(g, s, rng)
            chance += 1
        else:
            m = lib.es_random_move(g, s, rng, count)
            assert count[0] > 0
            decisions += 1
        assert lib.es_apply(g, s, m) == ES_OK
    return decisions, chance


# Every game: those with a random_play hook (Oh My Goods!: its own loop, forced moves found from
# the counts it draws from) and those the library's loop over the hooks plays
@pytest.mark.parametrize("name, players", [(name, es.game_spec(name).min_players) for name in es.games()]
                         + [("oh_my_goods", 3), ("oh_my_goods", 4)])
def test_random_play_is_the_step_by_step_game(name, players):
    """es_random_play and es_random_playout_from leave the state, the generator and the
    counts exactly as the step-by-step loop does: to the end, and for a number of decisions,
    from the start and from states along the way."""
    g, _keep = _native_game(name, players)
    size = lib.es_state_size(g)
    a, b = ffi.new("es_rng *"), ffi.new("es_rng *")
    dec, ch = ffi.new("int64_t *"), ffi.new("int64_t *")
    start = ffi.new("uint8_t[]", size)
    lib.es_init(g, start)
    compared = 0
    for seed in range(4):
        lib.es_rng_seed(a, 1000 + seed)
        for max_decisions in (1, 7, 20, 60, -1):
            s1, s2 = ffi.new("uint8_t[]", size), ffi.new("uint8_t[]", size)
            ffi.memmove(s1, start, size)
            ffi.memmove(s2, start, size)
            ffi.memmove(b, a, ffi.sizeof("es_rng"))
            dec[0] = ch[0] = 0
            if max_decisions < 0:
                rc = lib.es_random_playout_from(g, s1, a, dec, ch)
            else:
                rc = lib.es_random_play(g, s1, a, max_decisions, dec, ch)
            assert rc == ES_OK
            assert (dec[0], ch[0]) == _play_step_by_step(g, s2, b, max_decisions)
            assert bytes(ffi.buffer(s1, size)) == bytes(ffi.buffer(s2, size))
            assert bytes(ffi.buffer(a, ffi.sizeof("es_rng"))) == bytes(ffi.buffer(b, ffi.sizeof("es_rng")))
            if max_decisions > 0 and lib.es_current_player(g, s1) != ES_TERMINAL:
                assert dec[0] == max_decisions
            compared += 1
            if max_decisions == 20:   # go on from here for the next counts
                ffi.memmove(start, s1, size)
        assert lib.es_current_player(g, s1) == ES_TERMINAL
        lib.es_init(g, start)
    assert compared == 20


def test_random_play_of_no_decisions_changes_nothing():
    g, _keep = _native_game("oh_my_goods", 2)
    size = lib.es_state_size(g)
    s = ffi.new("uint8_t[]", size)
    lib.es_init(g, s)
    before = bytes(ffi.buffer(s, size))
    rng = ffi.new("es_rng *")
    lib.es_rng_seed(rng, 5)
    assert lib.es_random_play(g, s, rng, 0, ffi.NULL, ffi.NULL) == ES_OK
    assert bytes(ffi.buffer(s, size)) == before


# ----------------------------------------------------------------------------- stop requests


def test_a_stop_request_interrupts_the_watching_threads_playouts_only():
    """es_request_stop (what a SIGINT handler calls) interrupts the playouts of a thread that
    watches; a thread that does not watch plays on, and a request made before the watch
    began does not count."""
    c = CGame()
    n = 20
    out = ffi.new("double[]", n * c.players)
    lib.es_watch_stops(0)
    lib.es_request_stop()
    assert lib.es_random_playouts(c.g, n, 1, out, ffi.NULL, ffi.NULL) == ES_OK
    lib.es_watch_stops(1)
    try:
        assert lib.es_random_playouts(c.g, n, 1, out, ffi.NULL, ffi.NULL) == ES_OK   # asked before
        lib.es_request_stop()
        assert lib.es_random_playouts(c.g, n, 1, out, ffi.NULL, ffi.NULL) == D["ES_ERR_INTERRUPTED"]
    finally:
        lib.es_watch_stops(0)
    assert lib.es_random_playouts(c.g, n, 1, out, ffi.NULL, ffi.NULL) == ES_OK
