"""``eurosearch play GAME`` in the terminal: the board each turn, numbered moves, commands."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, Callable, TextIO

from ..errors import IllegalMoveError
from ..views import text as view_text, view
from .record import Step
from .session import HUMAN, Session

HELP = ("Pick a move by its number or its text. Commands: undo, hint, save FILE, board, moves, help, quit. "
        "End of input quits.")


def _win(w: Any) -> str:
    return "?" if w is None else f"{100 * w:.0f}%"


def format_top(top: list[dict[str, Any]]) -> str:
    """The AI's top moves, one per line: text, visits, win chance."""
    return "\n".join(f"    {t['text']:<30} visits {t['visits']:>6}  win {_win(t['win'])}" for t in top)


def thinking(task: Callable[[], Any], stream: TextIO, label: str) -> Any:
    """Run `task` in a thread; meanwhile draw a spinner with the elapsed time on a terminal."""
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = task()
        except BaseException as exc:  # handed to the caller below
            result["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    start = time.monotonic()
    t.start()
    tty = getattr(stream, "isatty", lambda: False)()
    spin = "|/-\\"
    k = 0
    while t.is_alive():
        t.join(0.1)
        if tty:
            stream.write(f"\r{label} {spin[k % 4]} {time.monotonic() - start:.1f}s")
            stream.flush()
            k += 1
    if tty:
        stream.write("\r" + " " * (len(label) + 12) + "\r")
        stream.flush()
    if "error" in result:
        raise result["error"]
    return result.get("value")


class TerminalGame:
    """The read-eval loop of one game; input and output streams are parameters (tests)."""

    def __init__(self, session: Session, stdin: TextIO, stdout: TextIO, stderr: TextIO, color: bool):
        self.s = session
        self.inp, self.out, self.err = stdin, stdout, stderr
        self.color = color

    @property
    def viewer(self) -> int | None:
        """The seat whose view is shown: the person to move, else the first person."""
        if self.s.human_to_move():
            return self.s.to_move()
        humans = self.s.humans()
        return humans[0] if humans else None

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def show_board(self) -> None:
        seat = self.viewer if self.viewer is not None else 0
        self.say(view_text.render(view(self.s.state, seat), color=self.color))

    def show_moves(self) -> None:
        kind = None
        for c in self.s.choices():
            if c.kind != kind:
                kind = c.kind
                self.say(f"  [{kind}]")
            self.say(f"  {c.number:>3}. {c.text}")

    def report(self, step: Step) -> None:
        """What just happened, as the human may see it; an AI's alternatives where allowed."""
        i = len(self.s.record.steps) - 1
        self.say(self.s.step_text(i, self.viewer))
        top = self.s.step_alternatives(i, self.viewer)
        if step.agent:
            self.say(f"  ({step.agent}, {step.seconds:.1f}s)" + (" top moves:" if top else ""))
            if top:
                self.say(format_top(top))

    def report_chance(self, steps: list[Step]) -> None:
        """Chance events as they happen; a run of identical lines (hidden draws) as one."""
        n = len(self.s.record.steps)
        lines = [self.s.step_text(i, self.viewer) for i in range(n - len(steps), n)]
        k = 0
        while k < len(lines):
            j = k
            while j + 1 < len(lines) and lines[j + 1] == lines[k]:
                j += 1
            self.say(lines[k] + (f" (x{j - k + 1})" if j > k else ""))
            k = j + 1

    def advance(self) -> None:
        """Chance and AI moves until a person is to move or the game is over."""
        while True:
            self.report_chance(self.s.resolve_chance())
            if not self.s.ai_to_move():
                return
            p = self.s.to_move()
            st = thinking(self.s.ai_move, self.err, f"P{p} ({self.s.seats[p]}) is thinking")
            self.report(st)

    def command(self, line: str) -> bool:
        """Handle one input line; False to stop."""
        word, _, arg = line.strip().partition(" ")
        if word in ("quit", "exit", "q"):
            return False
        if word == "help":
            self.say(HELP)
        elif word == "board":
            self.show_board()
        elif word == "moves":
            self.show_moves()
        elif word == "undo":
            n = self.s.undo()
            self.say(f"took back {n} step(s)" if n else "nothing to undo")
            if n:
                self.prompt_state()
        elif word == "hint":
            seat = self.s.to_move()
            a = thinking(lambda: self.s.hint(seat), self.err, "searching for a hint")
            self.say(f"hint for P{seat}:")
            self.say(format_top(a.top) if a.top else f"    {self.s.state.move_to_str(a.move)}")
        elif word == "save":
            if not arg.strip():
                self.say("usage: save FILE")
            else:
                try:
                    self.s.record.save(arg.strip())
                    self.say(f"saved {len(self.s.record.steps)} steps to {arg.strip()}")
                except OSError as exc:
                    self.say(f"cannot save: {exc}")
        else:
            try:
                move = self.s.parse_choice(line)
            except IllegalMoveError as exc:
                self.say(f"{exc} (type help for the commands)")
                return True
            self.s.play(move)
            self.report(self.s.record.steps[-1])
            self.advance()
            self.prompt_state()
        return True

    def prompt_state(self) -> None:
        if self.s.state.is_terminal():
            return
        self.say("")
        self.show_board()
        self.say(f"P{self.s.to_move()} to move:")
        self.show_moves()

    def run(self) -> int:
        self.advance()
        self.prompt_state()
        while not self.s.state.is_terminal():
            self.out.write("> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:                      # end of input: stop cleanly
                self.say("")
                self.say("end of input; the game is left unfinished")
                return 0
            if line.strip() and not self.command(line):
                self.say("bye")
                return 0
        self.show_board()
        scores = self.s.state.scores()
        returns = self.s.state.returns()
        winners = [f"P{p}" for p, r in enumerate(returns) if r > 0]
        self.say(f"game over: scores {', '.join(f'P{p} {sc:g}' for p, sc in enumerate(scores))}; "
                 f"winner {' and '.join(winners)}")
        return 0


def play_terminal(session: Session, stdin: TextIO | None = None, stdout: TextIO | None = None,
                  stderr: TextIO | None = None, color: bool | None = None) -> int:
    out = stdout or sys.stdout
    if color is None:
        color = getattr(out, "isatty", lambda: False)()
    if HUMAN not in session.seats:
        print("no seat is played by a person; watching the AIs play", file=out)
    return TerminalGame(session, stdin or sys.stdin, out, stderr or sys.stderr, color).run()
