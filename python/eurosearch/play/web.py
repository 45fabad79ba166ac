"""``eurosearch play GAME --web``: a local web server for one page and a small JSON API.

The server holds the whole game; a browser only ever receives the views of the people's
seats (``views.view``), the move lists of those seats, the log as those seats may read it and
the AI's alternatives where they give nothing hidden away. Saving writes the record on the
server's disk (a record holds every hidden card, so it is never sent to a browser); loading
takes a record uploaded by the browser.

API (JSON):  GET /api/state?seat=S&at=K    the seat's view (after K steps: the replay slider)
             POST /api/move {"move": id}   POST /api/undo   POST /api/new {"seed": n}
             POST /api/hint   POST /api/save   POST /api/load <record JSON>
"""

from __future__ import annotations

import json
import threading
import time
import webbrowser
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from ..errors import IllegalMoveError
from ..views import view
from .record import parse_record
from .session import Session, with_a_person

MAX_BODY = 16 * 1024 * 1024


class ApiError(Exception):
    def __init__(self, status: HTTPStatus, message: str):
        super().__init__(message)
        self.status = status


class WebGame:
    """The game behind the page: a Session, the AI's background thread and the last hint."""

    def __init__(self, session: Session, save_dir: Path):
        self.session = session
        self.save_dir = save_dir
        self.lock = threading.RLock()
        self.worker: threading.Thread | None = None
        self.thinking_since: float | None = None
        self.hint: dict[str, Any] | None = None
        self.error: str | None = None

    # --- background AI ---
    def start_ais(self) -> None:
        """Let chance and the AI seats move in a background thread (the page stays live)."""
        with self.lock:
            if self.worker and self.worker.is_alive():
                return
            self.thinking_since = time.monotonic()
            self.worker = threading.Thread(target=self._run_ais, args=(self.session,), daemon=True)
            self.worker.start()

    def _run_ais(self, session: Session) -> None:
        try:
            session.run_ais()
        except Exception as exc:  # shown on the page instead of killing the thread silently
            self.error = f"the AI failed: {exc}"
        finally:
            with self.lock:
                self.thinking_since = None

    def busy(self) -> bool:
        return self.thinking_since is not None

    def _require_idle(self) -> None:
        if self.busy():
            raise ApiError(HTTPStatus.CONFLICT, "the AI is thinking; wait for its move")

    # --- what a seat sees ---
    def seat_of(self, query: dict[str, list[str]]) -> int:
        humans = self.session.humans()
        if not humans:
            raise ApiError(HTTPStatus.BAD_REQUEST, "no seat is played by a person")
        if "seat" not in query:
            cp = self.session.to_move()
            return cp if cp in humans else humans[0]
        try:
            seat = int(query["seat"][0])
        except ValueError:
            raise ApiError(HTTPStatus.BAD_REQUEST, "seat must be a number") from None
        if seat not in humans:
            raise ApiError(HTTPStatus.FORBIDDEN, f"seat {seat} is not played from this page")
        return seat

    def state_doc(self, seat: int, at: int | None = None) -> dict[str, Any]:
        with self.lock:
            s = self.session
            n = len(s.record.steps)
            k = n if at is None else max(0, min(at, n))
            state = s.states[k]
            log = []
            for i in range(k):
                st = s.record.steps[i]
                entry: dict[str, Any] = {"i": i + 1, "player": st.player, "text": s.step_text(i, seat)}
                if st.agent:
                    entry["agent"] = st.agent
                log.append(entry)
            analysis: list[dict[str, Any]] = []
            last_ai = next((i for i in range(k - 1, -1, -1)       # the last AI move with a choice to show
                            if s.record.steps[i].agent and s.step_alternatives(i, seat)), None)
            if last_ai is not None:
                analysis = [{"text": a["text"], "visits": a["visits"], "win": a["win"]}
                            for a in s.step_alternatives(last_ai, seat)]
            live = k == n
            cp = state.current_player
            moves = []
            if live and not self.busy() and cp == seat:
                moves = [{"number": c.number, "move": c.move, "text": c.text, "kind": c.kind} for c in s.choices()]
            doc = {
                "view": view(state, seat), "moves": moves, "log": log, "analysis": analysis,
                "analysis_by": s.record.steps[last_ai].agent if last_ai is not None else None,
                "analysis_step": last_ai + 1 if last_ai is not None else None,
                "hint": self.hint if live and self.hint and self.hint["step"] == n else None,
                "steps": n, "at": k, "live": live, "seat": seat, "seats": s.seats,
                "thinking": self.busy(), "thinking_seconds": round(time.monotonic() - self.thinking_since, 1)
                if self.thinking_since else 0.0, "error": self.error,
                "over": state.is_terminal(), "returns": state.returns() if state.is_terminal() else None,
            }
            return doc

    # --- actions ---
    def move(self, seat: int, body: dict[str, Any]) -> None:
        with self.lock:
            self._require_idle()
            if self.session.to_move() != seat:
                raise ApiError(HTTPStatus.CONFLICT, f"seat {seat} is not to move")
            move = body.get("move")
            if isinstance(move, bool) or not isinstance(move, int):
                raise ApiError(HTTPStatus.BAD_REQUEST, "expected {\"move\": <move id>}")
            try:
                self.session.play(move)
            except IllegalMoveError as exc:
                raise ApiError(HTTPStatus.BAD_REQUEST, str(exc)) from None
            self.hint = None
        self.start_ais()

    def undo(self) -> int:
        with self.lock:
            self._require_idle()
            self.hint = None
            return self.session.undo()

    def new_game(self, body: dict[str, Any]) -> None:
        with self.lock:
            self._require_idle()
            old = self.session
            seed = body.get("seed", old.record.seed + 1)
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise ApiError(HTTPStatus.BAD_REQUEST, "seed must be an integer")
            self.session = Session(old.game, old.seats, seed, data=old.record.data)
            self.hint = None
            self.error = None
        self.start_ais()

    def start_hint(self, seat: int) -> None:
        with self.lock:
            self._require_idle()
            if self.session.to_move() != seat:
                raise ApiError(HTTPStatus.CONFLICT, "a hint is for the seat to move")
            step = len(self.session.record.steps)
            self.thinking_since = time.monotonic()

        def run() -> None:
            try:
                a = self.session.hint(seat)
                top = a.top or [{"text": self.session.state.move_to_str(a.move), "visits": 0, "win": None}]
                self.hint = {"step": step, "top": [{"text": t["text"], "visits": t["visits"], "win": t["win"]}
                                                   for t in top]}
            finally:
                with self.lock:
                    self.thinking_since = None

        threading.Thread(target=run, daemon=True).start()

    def save(self) -> str:
        with self.lock:
            rec = self.session.record
            self.save_dir.mkdir(parents=True, exist_ok=True)
            path = self.save_dir / f"{rec.game}-{time.strftime('%Y%m%d-%H%M%S')}-{len(rec.steps)}.json"
            rec.save(path)
            return str(path)

    def load(self, text: str) -> None:
        with self.lock:
            self._require_idle()
            try:
                rec = parse_record(text)
                humans = self.session.humans()
                seats = [("human" if p in humans else spec) for p, spec in enumerate(rec.seats)] \
                    if len(rec.seats) == len(self.session.seats) else rec.seats
                self.session = Session.from_record(rec, with_a_person(seats))
            except ValueError as exc:
                raise ApiError(HTTPStatus.BAD_REQUEST, str(exc)) from None
            self.hint = None
            self.error = None
        self.start_ais()


def page() -> bytes:
    """The page, shipped as package data."""
    return resources.files("eurosearch.play").joinpath("static/index.html").read_bytes()


def make_handler(web: WebGame) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal shows the URL only
            pass

        def _send(self, status: HTTPStatus, body: bytes, ctype: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: HTTPStatus, doc: Any) -> None:
            self._send(status, json.dumps(doc).encode(), "application/json")

        def _body(self) -> str:
            try:
                n = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                raise ApiError(HTTPStatus.BAD_REQUEST, "bad Content-Length") from None
            if not 0 <= n <= MAX_BODY:
                raise ApiError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request too large")
            return self.rfile.read(n).decode("utf-8", errors="replace") if n else ""

        def _handle(self, method: str) -> None:
            url = urlparse(self.path)
            query = parse_qs(url.query)
            try:
                if method == "GET" and url.path in ("/", "/index.html"):
                    self._send(HTTPStatus.OK, page(), "text/html; charset=utf-8")
                    return
                if not url.path.startswith("/api/"):
                    raise ApiError(HTTPStatus.NOT_FOUND, "no such page")
                action = url.path[len("/api/"):]
                seat = web.seat_of(query)
                if method == "GET" and action == "state":
                    at = int(query["at"][0]) if "at" in query and query["at"][0].lstrip("-").isdigit() else None
                    self._json(HTTPStatus.OK, web.state_doc(seat, at))
                    return
                if method != "POST":
                    raise ApiError(HTTPStatus.METHOD_NOT_ALLOWED, "use POST")
                raw = self._body()
                extra: dict[str, Any] = {}
                if action == "load":
                    web.load(raw)
                else:
                    try:
                        body = json.loads(raw) if raw.strip() else {}
                    except json.JSONDecodeError:
                        raise ApiError(HTTPStatus.BAD_REQUEST, "the request body is not JSON") from None
                    if not isinstance(body, dict):
                        raise ApiError(HTTPStatus.BAD_REQUEST, "the request body must be a JSON object")
                    if action == "move":
                        web.move(seat, body)
                    elif action == "undo":
                        extra["undone"] = web.undo()
                    elif action == "new":
                        web.new_game(body)
                    elif action == "hint":
                        web.start_hint(seat)
                    elif action == "save":
                        extra["saved"] = web.save()
                    else:
                        raise ApiError(HTTPStatus.NOT_FOUND, f"no action {action!r}")
                seat = web.seat_of({})
                self._json(HTTPStatus.OK, {**web.state_doc(seat), **extra})
            except ApiError as exc:
                self._json(exc.status, {"error": str(exc)})

        def do_GET(self) -> None:
            self._handle("GET")

        def do_POST(self) -> None:
            self._handle("POST")

    return Handler


def start_server(session: Session, host: str = "127.0.0.1", port: int = 0,
                 save_dir: str | Path = ".") -> tuple[ThreadingHTTPServer, WebGame]:
    """A running server in a background thread (port 0: a free port); stop with shutdown()."""
    web = WebGame(session, Path(save_dir))
    server = ThreadingHTTPServer((host, port), make_handler(web))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    web.start_ais()
    return server, web


def serve(session: Session, host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True) -> int:
    """Serve until Ctrl-C; prints the address."""
    server, _ = start_server(session, host, port)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{server.server_address[1]}/"
    print(f"eurosearch play: open {url} in a browser (Ctrl-C to stop); saved games go to {Path('.').resolve()}",
          flush=True)
    if open_browser:
        try:
            webbrowser.open(url)
        except Exception:
            pass
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.shutdown()
        return 0
