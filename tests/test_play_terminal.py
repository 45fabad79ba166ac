"""`eurosearch play` in the terminal: scripted whole games, commands, end of input."""

from __future__ import annotations

import io
import time
import subprocess
import sys

import pytest

import eurosearch as es
from eurosearch.play import Session, load_record
from eurosearch.play.terminal import TerminalGame, play_terminal

GAMES = [("oh_my_goods", 2), ("vienna", 3), ("coal_baron", 2)]


def run(session: Session, script: str) -> str:
    out = io.StringIO()
    assert play_terminal(session, stdin=io.StringIO(script), stdout=out, stderr=io.StringIO(), color=False) == 0
    return out.getvalue()


@pytest.mark.parametrize("name,players", GAMES)
def test_a_scripted_person_plays_a_whole_game(name: str, players: int) -> None:
    g = es.game(name, players=players)
    seats = ["human"] + ["mcts:iterations=20"] * (players - 1)
    s = Session(g, seats, seed=3)
    text = run(s, "1\n" * 5000)
    assert s.state.is_terminal()
    assert "game over: scores" in text
    assert "P0 to move:" in text and "    1. " in text
    # the record replays to the same end
    assert [st.player for st in s.record.steps].count(0) > 5


def test_moves_by_text_undo_hint_save_and_quit(tmp_path) -> None:
    g = es.game("oh_my_goods", players=2)
    s = Session(g, ["human", "random"], seed=1)
    TerminalGame(s, io.StringIO(""), io.StringIO(), io.StringIO(), False).advance()
    first = s.choices()[0].text
    path = tmp_path / "g.json"
    text = run(s, f"{first}\nnot a move\n99999\nundo\nhint\nsave {path}\nquit\n")
    assert f"P0: {first}" in text
    assert "no legal move reads 'not a move'" in text
    assert "no move number 99999" in text
    assert "took back" in text
    assert "hint for P0:" in text and "visits" in text
    assert "bye" in text
    rec = load_record(path)
    assert rec.game == "oh_my_goods" and rec.seats == ["human", "random"]
    assert [st.player for st in rec.steps if st.player == 0] == []      # the move was undone


def test_end_of_input_ends_cleanly() -> None:
    s = Session(es.game("vienna", players=3), ["human", "random", "random"], seed=2)
    text = run(s, "")
    assert "end of input" in text


def test_the_command_line_plays_from_a_pipe(tmp_path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "eurosearch", "play", "coal_baron", "--players", "2", "--ai", "random", "--seed", "4"],
        input="1\n" * 3000, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "game over" in proc.stdout


def test_bad_seat_and_bad_ai_are_clear_errors() -> None:
    for args in (["--seat", "5"], ["--ai", "nosuchagent"], ["--ai", "random,random"]):
        proc = subprocess.run([sys.executable, "-m", "eurosearch", "play", "oh_my_goods", *args],
                              input="", capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "eurosearch play:" in proc.stderr, (args, proc.stderr)


def test_on_a_terminal_the_board_is_coloured_and_the_ai_shows_a_spinner() -> None:
    import os
    import select

    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "eurosearch", "play", "vienna", "--players", "3", "--ai", "mcts:seconds=0.4", "--seed", "1"],
        stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    out = b""

    def read_until(token: bytes, timeout: float = 120.0) -> None:
        nonlocal out
        end = time.monotonic() + timeout
        while token not in out:
            assert time.monotonic() < end, out[-2000:]
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    out += os.read(master, 65536)
                except OSError:           # the child closed the terminal
                    break

    try:
        read_until(b"> ")
        os.write(master, b"1\n")
        os.write(master, b"quit\n")
        read_until(b"bye")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert b"\x1b[" in out                      # colours on a terminal
    assert b"is thinking" in out                # the spinner while an AI searches
