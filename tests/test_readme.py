"""The README keeps its promises: its two install commands are the ones CI and users run,
every Python block runs (in order, in one namespace, as a user pasting them would) and every
`eurosearch ...` command line runs with the installed CLI, exits 0 and prints a result."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(text: str, lang: str) -> list[str]:
    """The fenced code blocks of one language, in order."""
    blocks, inside, current = [], False, []
    for line in text.splitlines():
        if line.startswith("```"):
            if inside:
                blocks.append("\n".join(current))
            inside, current = not inside and line.strip() == f"```{lang}", []
        elif inside:
            current.append(line)
    return blocks


def _shell_blocks(text: str) -> list[str]:
    return _blocks(text, "sh")


def _commands() -> list[str]:
    """Every `eurosearch ...` line of the shell blocks after the two install commands."""
    return [line for block in _shell_blocks(README)[2:] for line in block.splitlines()
            if line.startswith("eurosearch ")]


def _cli() -> str:
    """The installed console script (next to this interpreter, as pip puts it in a venv)."""
    here = Path(sys.executable).parent / "eurosearch"
    found = str(here) if here.exists() else shutil.which("eurosearch")
    assert found, "the eurosearch command is not installed"
    return found


def test_readme_starts_with_install_and_match_then_test_command() -> None:
    blocks = _shell_blocks(README)
    assert blocks[0].startswith("pip install . && eurosearch match vienna --agents ")
    assert blocks[1] == "pip install '.[test,ray,openspiel,pettingzoo,gym]' && python -m pytest"


def test_ci_runs_exactly_the_readme_test_command() -> None:
    blocks = _shell_blocks(README)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1] == blocks[1]


@pytest.fixture(scope="module")
def readme_run(tmp_path_factory):
    """Run the Python blocks in order in one namespace, in a fresh directory (they write
    in.jsonl there for the command lines); their printed output per block."""
    where = tmp_path_factory.mktemp("readme")
    namespace: dict = {"__name__": "__readme__"}
    printed = []
    old = os.getcwd()
    os.chdir(where)
    try:
        for i, block in enumerate(_blocks(README, "python")):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(block, f"README python block {i + 1}", "exec"), namespace)
            printed.append(out.getvalue())
    finally:
        os.chdir(old)
    return where, namespace, printed


def test_every_python_block_runs_and_prints(readme_run) -> None:
    where, namespace, printed = readme_run
    assert len(printed) >= 3 and all(text.strip() for text in printed[:1] + printed[2:])
    r = namespace["r"]                            # the last es.solve result
    assert len(dict(zip(r.moves, r.values))) == len(r.moves)
    assert (where / "in.jsonl").read_text().count("\n") == 3


def test_every_command_line_is_checked() -> None:
    commands = _commands()
    assert [c.split()[1] for c in commands] == ["play", "play", "replay", "match", "arena", "arena", "solve", "solve", "bench", "train-eval"]


def _play_in_browser(args: list[str], where: Path) -> None:
    """`play --web`: the server starts, prints its address and serves the page; Ctrl-C ends it.
    The one change to the README's line: any free port, so that the test never collides."""
    env = dict(os.environ, BROWSER="true")        # webbrowser.open runs `true`, opens nothing
    proc = subprocess.Popen([_cli(), *args[1:], "--port", "0"], cwd=where, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://\S+/", line)
        assert url, (line, proc.stderr.read() if proc.poll() is not None else "")
        with urllib.request.urlopen(url.group(0), timeout=30) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) in (0, 130)     # it stops; 130 is the usual code for Ctrl-C
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("command", _commands())
def test_command_line_runs_and_prints_a_result(command, readme_run) -> None:
    where = readme_run[0]
    args = shlex.split(command, comments=True)
    if args[1] == "play" and "--web" in args:
        _play_in_browser(args, where)
        return
    if args[1] == "play":                        # a person saves the game and quits
        r = subprocess.run([_cli(), *args[1:]], cwd=where, input="save game.json\nquit\n",
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (command, r.stderr)
        assert r.stdout.strip() and (where / "game.json").exists(), r.stdout
        return
    r = subprocess.run([_cli(), *args[1:]], cwd=where, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (command, r.stderr)
    assert r.stdout.strip(), command
    if args[1] == "solve":                       # something was solved, not just skipped
        assert int(re.match(r"(\d+) solved", r.stdout).group(1)) > 0, r.stdout
