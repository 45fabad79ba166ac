"""eurosearch arena --sprt: the GSPRT statistics against independent values, the pairing of
games, decisions on real agents, worker independence, Ctrl-C, argument errors, JSON shape."""

from __future__ import annotations

import json
import math

import pytest

from eurosearch import arena
from eurosearch.arena import GameRecord, SprtResult, ahead, fillers_for, format_sprt, run_sprt, sprt_seating
from eurosearch.cli import main
from eurosearch.match import Interrupted
from eurosearch.play.record import load_record
from eurosearch.sprt import (CHI2_95, PENTANOMIAL, TRINOMIAL, SprtSettings, decision, elo_estimate, elo_of_score,
                             llr, parse_sprt, score_of_elo)


def constrained_mle(counts, outcomes, s):
    """The most likely distribution over `outcomes` with mean `s`, found here independently of
    eurosearch.sprt: Newton's method on the Lagrange condition sum p (a - s) / (1 + t (a - s)) = 0
    (valid when s lies strictly between the smallest and largest observed outcome), giving the
    distribution q itself, which the test then checks."""
    n = sum(counts)
    p = [c / n for c in counts]
    t = 0.0
    for _ in range(100):
        f = sum(pi * (a - s) / (1 + t * (a - s)) for pi, a in zip(p, outcomes))
        df = -sum(pi * (a - s) ** 2 / (1 + t * (a - s)) ** 2 for pi, a in zip(p, outcomes))
        t -= f / df
    return [pi / (1 + t * (a - s)) for pi, a in zip(p, outcomes)]


def test_llr_matches_a_published_fishtest_value():
    # A fishtest instance (montytest.muzhen.org/tests/stats/69d3c8dc7c5b3724e29d2712) shows for
    # the pentanomial counts [13, 37, 50, 25, 3] the "Logistic (exact)" LLR -0.53772 between
    # logistic Elo 0 and 2.716 (its normalized bound 4.0 at the observed 0.33946 stdev/game:
    # 4 * 2 * 0.33946 = 2.7157), and the Elo estimate -43.6578.
    counts = [13, 37, 50, 25, 3]
    assert llr(counts, score_of_elo(0), score_of_elo(4 * 2 * 0.33946)) == pytest.approx(-0.53772, abs=2e-5)
    assert elo_estimate(counts)[1] == pytest.approx(-43.6578, abs=1e-4)


def test_llr_with_only_two_outcomes_is_the_binomial_formula():
    s0, s1 = score_of_elo(0), score_of_elo(10)
    # only whole losses (0) and whole wins (2) of pairs: W log(s1/s0) + L log((1-s1)/(1-s0)) exactly
    assert llr([3, 0, 0, 0, 7], s0, s1) == pytest.approx(7 * math.log(s1 / s0) + 3 * math.log((1 - s1) / (1 - s0)),
                                                         rel=1e-12)
    # every pair won: the best distribution with mean s puts s on a won pair, 1 - s on a lost one
    assert llr([0, 0, 0, 0, 7], s0, s1) == pytest.approx(7 * math.log(s1 / s0), rel=1e-12)
    assert llr([7, 0, 0, 0, 0], s0, s1) == pytest.approx(7 * math.log((1 - s1) / (1 - s0)), rel=1e-12)
    assert llr([0, 0, 0, 0, 0], s0, s1) == 0.0
    # trinomial: the same with single games
    assert llr([4, 0, 6], s0, s1, TRINOMIAL) == pytest.approx(6 * math.log(s1 / s0) + 4 * math.log((1 - s1) / (1 - s0)),
                                                              rel=1e-12)


@pytest.mark.parametrize("counts,elo0,elo1", [([10, 40, 100, 60, 20], 0, 10), ([5, 30, 60, 30, 12], -5, 20),
                                              ([31, 2, 11, 9, 40], 0, 50)])
def test_llr_is_the_log_ratio_of_the_constrained_mles(counts, elo0, elo1):
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    q0, q1 = constrained_mle(counts, PENTANOMIAL, s0), constrained_mle(counts, PENTANOMIAL, s1)
    for q, s in ((q0, s0), (q1, s1)):
        assert sum(q) == pytest.approx(1, abs=1e-12) and sum(x * a for x, a in zip(q, PENTANOMIAL)) == pytest.approx(s)
        assert min(q) > 0
    expected = sum(n * math.log(b / a) for n, a, b in zip(counts, q0, q1))
    assert llr(counts, s0, s1) == pytest.approx(expected, rel=1e-9, abs=1e-12)
    # and, loosely, the normal approximation N (s1 - s0) (2 mean - s0 - s1) / (2 var)
    n = sum(counts)
    mean = sum(c * a for c, a in zip(counts, PENTANOMIAL)) / n
    var = sum(c * (a - mean) ** 2 for c, a in zip(counts, PENTANOMIAL)) / n
    assert llr(counts, s0, s1) == pytest.approx(n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var), rel=0.05, abs=0.02)


def test_bounds_are_walds_and_decide_at_the_crossing():
    st = SprtSettings(0, 10, alpha=0.05, beta=0.1)
    assert st.lower == pytest.approx(math.log(0.1 / 0.95)) and st.upper == pytest.approx(math.log(0.9 / 0.05))
    assert parse_sprt("elo0=0,elo1=10").lower == pytest.approx(-2.944438979166440)
    assert decision(st.upper, st) == "H1" and decision(st.lower, st) == "H0"
    assert decision(0.0, st) is None and decision(st.upper - 1e-9, st) is None


def test_elo_estimate_and_its_interval():
    assert score_of_elo(0) == 0.5 and elo_of_score(score_of_elo(123.0)) == pytest.approx(123.0)
    assert score_of_elo(400) == pytest.approx(10 / 11)
    mean, elo, lo, hi = elo_estimate([5, 0, 9, 0, 2])
    assert mean == pytest.approx(0.40625) and elo == pytest.approx(400 * math.log10(0.40625 / 0.59375))
    assert lo < elo < hi
    # every pair won: no finite point estimate, and the lower end solves 2 n log(1/s) = chi2
    n = 23
    mean, elo, lo, hi = elo_estimate([0, 0, 0, 0, n])
    assert mean == 1 and elo == math.inf and hi == math.inf
    assert lo == pytest.approx(elo_of_score(math.exp(-CHI2_95 / (2 * n))), abs=1e-6)
    # symmetric counts: a symmetric interval around 0
    _, elo, lo, hi = elo_estimate([3, 10, 20, 10, 3])
    assert elo == pytest.approx(0, abs=1e-12) and lo == pytest.approx(-hi)


@pytest.mark.parametrize("text,message", [
    ("", "needs elo0"), ("elo0=0", "elo1 missing"), ("elo0=0,elo1", "not key=value"),
    ("elo0=0,,elo1=5", "not key=value"), ("elo0=x,elo1=10", "elo0 must be a number"),
    ("elo0=0,elo1=10,gamma=1", "unknown key 'gamma'"), ("elo0=0,elo0=1,elo1=5", "elo0 given twice"),
    ("elo0=10,elo1=10", "elo0 must be below elo1"), ("elo0=20,elo1=10", "elo0 must be below elo1"),
    ("elo0=0,elo1=10,alpha=0", "alpha must lie strictly between 0 and 1"),
    ("elo0=0,elo1=10,alpha=1", "alpha must lie strictly between 0 and 1"),
    ("elo0=0,elo1=10,beta=-0.1", "beta must lie strictly between 0 and 1"),
    ("elo0=0,elo1=10,alpha=0.6,beta=0.5", "alpha + beta must be below 1"),
    ("elo0=0,elo1=nan", "elo1 must be a finite number"), ("elo0=-inf,elo1=3", "elo0 must be a finite number"),
    ("elo0=0,elo1=5000", "elo1 must lie within"), ("elo0=0,elo1=5,statistic=heptanomial", "statistic must be one of"),
])
def test_malformed_sprt_strings_are_refused_by_name(text, message, capsys):
    with pytest.raises(ValueError, match=message.replace("+", r"\+")):
        parse_sprt(text)
    assert main(["arena", "coal_baron", "--agents", "heuristic,random", "--sprt", text, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("eurosearch arena: --sprt") and err.count("\n") == 1 and message in err


def test_parse_sprt_reads_cutechess_keys():
    st = parse_sprt(" elo0=-1.5, elo1=4 ,alpha=0.01,beta=0.1,statistic=trinomial")
    assert (st.elo0, st.elo1, st.alpha, st.beta, st.statistic) == (-1.5, 4.0, 0.01, 0.1, "trinomial")
    assert parse_sprt("elo0=0,elo1=10") == SprtSettings(0.0, 10.0, 0.05, 0.05)


def test_pairs_swap_the_two_agents_and_fillers_keep_their_seats():
    assert [sprt_seating(i, 2) for i in range(4)] == [[0, 1], [1, 0], [1, 0], [0, 1]]
    # three seats: the tested pair goes round the table, the filler (2) takes the seat left over
    assert [sprt_seating(i, 3) for i in range(6)] == [[0, 1, 2], [1, 0, 2], [2, 0, 1], [2, 1, 0], [1, 2, 0], [0, 2, 1]]
    assert sprt_seating(0, 4) == [0, 1, 2, 3] and sprt_seating(7, 4) == [0, 2, 3, 1]
    assert fillers_for(2, []) == [] and fillers_for(4, ["random"]) == ["random", "random"]
    assert fillers_for(4, ["random", "heuristic"]) == ["random", "heuristic"]
    with pytest.raises(ValueError, match="give --filler"):
        fillers_for(3, [])
    with pytest.raises(ValueError, match="more than two seats"):
        fillers_for(2, ["random"])
    with pytest.raises(ValueError, match="leave 2 for fillers, but --filler gives 3"):
        fillers_for(4, ["a", "b", "c"])


def test_a_game_result_is_who_finished_ahead_and_a_pair_adds_its_two_games():
    assert ahead([1.0, 0.0, 0.0], [10, 5, 7], 0, 1) == 1.0
    assert ahead([0.0, 0.0, 1.0], [5, 7, 9], 0, 1) == 0.0          # both lost: points decide
    assert ahead([0.5, 0.5], [8, 8], 0, 1) == 0.5
    r = SprtResult("coal_baron", 2, ["a", "b"], SprtSettings(0, 10), 10, 0)
    r.add_pair(GameRecord([0, 1], [1.0, 0.0], [9, 3]), GameRecord([1, 0], [0.5, 0.5], [4, 4]))
    r.add_pair(GameRecord([1, 0], [1.0, 0.0], [9, 3]), GameRecord([0, 1], [0.0, 1.0], [1, 2]))
    assert r.pentanomial == [1, 0, 0, 1, 0] and r.trinomial == [2, 1, 1]
    assert r.llr == pytest.approx(llr([1, 0, 0, 1, 0], 0.5, score_of_elo(10)))


def test_heuristic_beats_random_quickly_and_workers_do_not_change_the_result():
    st = parse_sprt("elo0=0,elo1=100")
    one = run_sprt("coal_baron", ["heuristic", "random"], st, max_games=200, seed=1, progress=False)
    assert one.decision == "H1" and one.llr >= st.upper
    d = one.as_dict()
    assert d["pairs"] < 40 and d["games"] == 2 * d["pairs"] == sum(d["sprt"]["trinomial"])
    assert sum(d["sprt"]["pentanomial"]) == d["pairs"]
    # it stopped at the first pair that crossed: one pair fewer had not
    assert llr(one.pentanomial, 0.5, score_of_elo(100)) == pytest.approx(one.llr)
    two = run_sprt("coal_baron", ["heuristic", "random"], st, max_games=200, seed=1, workers=2, progress=False)
    assert two.as_dict() == d and [r.returns for r in two.records] == [r.returns for r in one.records]


def test_the_sprt_stops_at_the_first_deciding_pair():
    st = parse_sprt("elo0=0,elo1=100")
    r = run_sprt("coal_baron", ["heuristic", "random"], st, max_games=200, seed=1, progress=False)
    replay = SprtResult("coal_baron", 2, r.specs, st, 200, 1)
    crossed = []
    for k in range(0, len(r.records), 2):
        replay.add_pair(r.records[k], r.records[k + 1])
        crossed.append(replay.decision is not None)
    assert crossed[-1] and not any(crossed[:-1])


def test_random_against_itself_does_not_accept_h1():
    r = run_sprt("coal_baron", ["random", "random"], parse_sprt("elo0=0,elo1=100"), max_games=200, seed=0,
                 progress=False)
    assert r.decision != "H1"
    assert [a["name"] for a in r.as_dict()["agents"]] == ["random", "random #2"]


def test_both_games_of_a_pair_get_the_same_deal(tmp_path):
    run_sprt("oh_my_goods", ["heuristic", "random"], parse_sprt("elo0=0,elo1=5"), max_games=4, seed=3,
             progress=False, record=tmp_path)
    def deal(index):
        moves = load_record(tmp_path / f"oh_my_goods-arena-seed3-game{index:05d}.json").history()
        return [m for m in moves[:next(i for i, m in enumerate(moves) if m[0] >= 0)]]
    assert deal(0) and deal(0) == deal(1) and deal(2) == deal(3) and deal(0) != deal(2)
    first, second = (load_record(tmp_path / f"oh_my_goods-arena-seed3-game{i:05d}.json").seats for i in (0, 1))
    assert first == ["heuristic", "random"] and second == ["random", "heuristic"]


def test_three_seats_with_a_filler_decide_and_report_the_filler(capsys):
    assert main(["arena", "vienna", "--players", "3", "--agents", "heuristic,random", "--filler", "random",
                 "--sprt", "elo0=0,elo1=50", "--games", "200", "--json", "--no-progress"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["players"] == 3 and d["fillers"] == ["random"] and d["sprt"]["decision"] == "H1"
    assert d["data_status"] == "provisional"
    assert main(["arena", "vienna", "--players", "3", "--agents", "heuristic,random", "--sprt", "elo0=0,elo1=50"]) == 2
    assert "give --filler SPEC" in capsys.readouterr().err
    assert main(["arena", "vienna", "--agents", "heuristic,random,random", "--filler", "random", "--games", "2"]) == 2
    assert "--filler goes with --sprt" in capsys.readouterr().err


def test_json_and_text_output(capsys):
    args = ["arena", "coal_baron", "--agents", "heuristic,random", "--sprt", "elo0=0,elo1=100", "--seed", "1",
            "--games", "200", "--no-progress"]
    assert main(args + ["--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d) == {"game", "players", "seed", "games", "pairs", "max_games", "interrupted", "agents", "fillers",
                      "sprt", "data_status"}
    assert d["data_status"] == "published"
    assert set(d["sprt"]) == {"elo0", "elo1", "alpha", "beta", "elo_model", "statistic", "llr", "lower", "upper",
                              "decision", "pentanomial", "trinomial", "score", "elo", "elo_ci95"}
    t = d["sprt"]
    assert (t["elo_model"], t["statistic"], t["decision"], d["interrupted"]) == ("logistic", "pentanomial", "H1", False)
    assert t["lower"] < 0 < t["upper"] <= t["llr"] and len(t["pentanomial"]) == 5 and len(t["trinomial"]) == 3
    lo, hi = t["elo_ci95"]
    assert lo is not None and (t["elo"] is None or lo < t["elo"])
    assert [a["spec"] for a in d["agents"]] == ["heuristic", "random"] and d["agents"][0]["games"] == d["games"]
    assert main(args) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith(f"coal_baron, 2 players, {d['games']} games in {d['pairs']} pairs")
    assert "H1 accepted: heuristic is at least 100 Elo stronger than random" in out
    assert f"LLR {t['llr']:+.3f}, bounds [-2.944, +2.944]" in out
    assert "Elo " in out and "95% interval" in out and "\x1b[" not in out


def test_the_game_maximum_ends_without_a_decision(capsys):
    assert main(["arena", "coal_baron", "--agents", "heuristic,random", "--sprt", "elo0=0,elo1=5", "--games", "4",
                 "--json", "--no-progress"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["sprt"]["decision"] is None and d["games"] == 4 and d["pairs"] == 2
    assert main(["arena", "coal_baron", "--agents", "heuristic,random", "--sprt", "elo0=0,elo1=5", "--games", "4",
                 "--no-progress"]) == 0
    assert "no decision within 4 games" in capsys.readouterr().out
    for games in ("3", "0"):
        assert main(["arena", "coal_baron", "--agents", "heuristic,random", "--sprt", "elo0=0,elo1=5",
                     "--games", games]) == 2
        assert "must be even and >= 2" in capsys.readouterr().err
    assert main(["arena", "coal_baron", "--agents", "heuristic,random,random", "--sprt", "elo0=0,elo1=5"]) == 2
    assert "exactly two agents" in capsys.readouterr().err


def test_ctrl_c_keeps_the_complete_pairs(monkeypatch, capsys):
    real = arena._play_one

    def play(job):
        if job[5] == 5:              # the sixth game: pair 2 is never complete
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(arena, "_play_one", play)
    with pytest.raises(Interrupted) as stop:
        run_sprt("coal_baron", ["heuristic", "random"], parse_sprt("elo0=0,elo1=500"), 100, progress=False)
    r = stop.value.result
    assert r.interrupted and len(r.records) == 4 and sum(r.pentanomial) == 2
    assert main(["arena", "coal_baron", "--agents", "heuristic,random", "--sprt", "elo0=0,elo1=500",
                 "--no-progress"]) == 130
    out = capsys.readouterr().out
    assert "interrupted: the pairs finished before Ctrl-C" in out and "4 games in 2 pairs" in out
    assert main(["arena", "coal_baron", "--agents", "heuristic,random", "--sprt", "elo0=0,elo1=500",
                 "--no-progress", "--json"]) == 130
    d = json.loads(capsys.readouterr().out)
    assert d["interrupted"] is True and d["pairs"] == 2 and d["sprt"]["decision"] is None


def test_format_sprt_names_the_decision():
    st = parse_sprt("elo0=0,elo1=10")
    r = SprtResult("coal_baron", 2, ["mcts", "heuristic"], st, 10, 0)
    for _ in range(3):
        r.add_pair(GameRecord([1, 0], [1.0, 0.0], [2, 1]), GameRecord([0, 1], [0.0, 1.0], [1, 2]))
    text = format_sprt(r)
    assert "no decision within 10 games" in text and "Elo -inf (95% interval -inf to " in text
    assert "component data" not in text          # no data sources given: nothing to label
    empty = format_sprt(SprtResult("vienna", 3, ["a", "b", "c"], st, 10, 0, data_sources={"status": "provisional",
                                                                                          "file": "v.toml"}))
    assert "Elo n/a (95% interval -inf to +inf), no complete pair" in empty
    assert "component data: provisional (v.toml); results on it are provisional" in empty
    assert "pairs by mcts's points in the pair: 0: 3, 0.5: 0, 1: 0, 1.5: 0, 2: 0; games lost/tied/won: 6/0/0" in text
