"""Game records from match and arena (--record DIR), replay, and play --load."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import eurosearch as es
from eurosearch.arena import run_arena
from eurosearch.match import run_match
from eurosearch.play import Session, load_record
from eurosearch.play.record import game_of, replay_states


def test_match_and_arena_record_every_game_and_the_records_replay(tmp_path) -> None:
    m = run_match("vienna", ["random", "heuristic", "random"], games=2, seed=3, record=tmp_path / "m")
    a = run_arena("oh_my_goods", ["random", "heuristic"], games=3, seed=1, workers=2, record=tmp_path / "a")
    files = sorted((tmp_path / "m").glob("*.json"))
    assert len(files) == 2 and len(list((tmp_path / "a").glob("*.json"))) == 3
    for i, f in enumerate(files):
        rec = load_record(f)
        end = replay_states(game_of(rec), rec)[-1]
        assert end.is_terminal() and end.scores() == m.scores[i]
        assert rec.seats == ["random", "heuristic", "random"] and rec.meta == {"source": "match", "index": i}
        assert all(st.agent == rec.seats[st.player] for st in rec.steps if st.player >= 0)
    for rec_file, game in zip(sorted((tmp_path / "a").glob("*.json")), a.records):
        rec = load_record(rec_file)
        assert replay_states(game_of(rec), rec)[-1].scores() == game.scores


def test_replay_prints_every_move_and_the_board(tmp_path) -> None:
    run_match("coal_baron", ["random", "random"], games=1, seed=2, record=tmp_path)
    path = next(tmp_path.glob("*.json"))
    rec = load_record(path)
    proc = subprocess.run([sys.executable, "-m", "eurosearch", "replay", str(path), "--seat", "1"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert f"{len(rec.steps)}. " in proc.stdout and "final scores" in proc.stdout
    assert proc.stdout.count("P1 (you)") > 10


def test_replay_and_load_refuse_a_corrupt_record_or_other_data(tmp_path) -> None:
    run_match("vienna", ["random"] * 3, games=1, seed=2, record=tmp_path)
    path = next(tmp_path.glob("*.json"))
    doc = json.loads(path.read_text())
    doc["options"] = {"carriage": "furthest"}
    (tmp_path / "other.json").write_text(json.dumps(doc))
    (tmp_path / "torn.json").write_text(path.read_text()[:-40])
    for bad, message in (("other.json", "other component data or options"), ("torn.json", "not JSON")):
        for cmd in (["replay", str(tmp_path / bad)], ["play", "--load", str(tmp_path / bad)]):
            proc = subprocess.run([sys.executable, "-m", "eurosearch", *cmd], input="", capture_output=True,
                                  text=True, timeout=120)
            assert proc.returncode == 2 and message in proc.stderr, (cmd, proc.stderr)


def test_play_load_continues_a_saved_game(tmp_path) -> None:
    s = Session(es.game("oh_my_goods", players=2), ["human", "random"], seed=4)
    s.run_ais()
    for _ in range(3):
        s.play(s.choices()[0].move)
        s.run_ais()
    s.record.save(tmp_path / "g.json")
    proc = subprocess.run([sys.executable, "-m", "eurosearch", "play", "--load", str(tmp_path / "g.json"), "--no-color"],
                          input="1\n" * 4000, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "game over" in proc.stdout
    resumed = Session.from_record(load_record(tmp_path / "g.json"))
    assert resumed.state.to_bytes() == s.state.to_bytes() and resumed.record.history() == s.record.history()


def test_a_match_record_loads_in_the_browser_with_a_person_in_seat_0(tmp_path) -> None:
    import urllib.request

    from eurosearch.play.web import start_server

    run_match("coal_baron", ["random", "random"], games=1, seed=5, record=tmp_path)
    path = next(tmp_path.glob("*.json"))
    server, web = start_server(Session(es.game("vienna", players=3), ["human", "random", "random"]), port=0)
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        while web.busy():
            time.sleep(0.01)
        req = urllib.request.Request(base + "/api/load", data=path.read_bytes(), method="POST")
        doc = json.loads(urllib.request.urlopen(req, timeout=60).read())
        assert doc["over"] and doc["seat"] == 0 and doc["view"]["game"] == "coal_baron"
        assert doc["seats"] == ["human", "random"]
    finally:
        server.shutdown()
