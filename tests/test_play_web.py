"""The web server: every response of a whole game holds only the person's seat's view."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request

import pytest

import eurosearch as es
from eurosearch.play import Session
from eurosearch.play.web import start_server


def seen_ids(state, seat: int) -> set[str]:
    """Oh My Goods! card ids (unique per card) that `seat` sees face up in `state`: the place
    is known to `seat` and is not the draw pile (where every card starts, known to all)."""
    full = json.loads(state.to_json())["state"]     # seen (bit p) and loc per card id
    return {cid for cid, seen in full["seen"].items() if (seen >> seat) & 1 and full["loc"][cid] != 0}


class NeverSeen:
    """Card ids seat 0 has not seen in any state up to step k of the game (no undo here: the
    game only grows). A card seen once may be named later, e.g. in the log."""

    def __init__(self, web):
        self.web = web
        self.ever: list[set[str]] = []

    def __call__(self, k: int) -> set[str]:
        states = self.web.session.states
        while len(self.ever) <= k:
            prev = self.ever[-1] if self.ever else set()
            self.ever.append(prev | seen_ids(states[len(self.ever)], 0))
        return {c.id for c in self.web.session.game.data.cards} - self.ever[k]


class Client:
    def __init__(self, server):
        self.base = f"http://127.0.0.1:{server.server_address[1]}"

    def call(self, path: str, body: dict | str | None = None) -> tuple[int, str]:
        data = None if body is None else (body if isinstance(body, str) else json.dumps(body)).encode()
        req = urllib.request.Request(self.base + path, data=data, method="GET" if data is None else "POST")
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()


@pytest.fixture
def omg():
    s = Session(es.game("oh_my_goods", players=2), ["human", "mcts:iterations=30"], seed=5)
    server, web = start_server(s, port=0)
    yield Client(server), web
    server.shutdown()


def idle(web) -> None:
    while web.busy():
        time.sleep(0.01)


def test_no_response_of_a_whole_game_names_a_hidden_card(omg, tmp_path) -> None:
    client, web = omg
    web.save_dir = tmp_path
    responses = 0
    never_seen = NeverSeen(web)
    while True:
        idle(web)
        status, text = client.call("/api/state")
        assert status == 200
        doc = json.loads(text)
        if doc["over"]:
            break
        actions = [("/api/move", {"move": doc["moves"][0]["move"]})]
        if responses % 25 == 0:
            actions.append(("/api/hint", {}))
        if responses % 40 == 0 and doc["steps"] > 10:
            actions.append(("/api/state?at=%d" % (doc["steps"] // 2), None))
        for path, body in actions:
            idle(web)
            status, text = client.call(path, body)
            idle(web)
            assert status == 200, text
            leaked = set(re.findall(r"[A-Za-z_]+\d+", text)) & never_seen(json.loads(text)["steps"])
            assert not leaked, (path, leaked)
            responses += 1
    assert doc["view"]["over"] and responses > 50
    status, text = client.call("/api/save", {})
    assert status == 200 and "saved" in json.loads(text)
    assert not set(re.findall(r"[A-Za-z_]+\d+", text)) & never_seen(json.loads(text)["steps"])


def test_the_ai_seat_cannot_be_viewed_and_bad_requests_are_refused(omg) -> None:
    client, web = omg
    idle(web)
    assert client.call("/api/state?seat=1")[0] == 403
    assert client.call("/api/move", {"move": "x"})[0] == 400
    assert client.call("/api/move", {"move": 123456789})[0] == 400
    assert client.call("/api/move", "not json")[0] == 400
    assert client.call("/api/load", "{broken")[0] == 400
    assert client.call("/api/nothing", {})[0] == 404
    status, text = client.call("/")
    assert status == 200 and "<html" in text
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", int(client.base.rsplit(":", 1)[1]), timeout=30)
    conn.putrequest("POST", "/api/move")
    conn.putheader("Content-Length", "abc")
    conn.endheaders()
    assert conn.getresponse().status == 400


def test_undo_new_game_and_load_through_the_api(omg, tmp_path) -> None:
    client, web = omg
    web.save_dir = tmp_path
    idle(web)
    doc = json.loads(client.call("/api/state")[1])
    steps = doc["steps"]
    client.call("/api/move", {"move": doc["moves"][0]["move"]})
    idle(web)
    undone = json.loads(client.call("/api/undo", {})[1])
    assert undone["undone"] >= 1 and undone["steps"] == steps
    saved = json.loads(client.call("/api/save", {})[1])["saved"]
    assert json.loads(client.call("/api/new", {"seed": 77})[1])["steps"] <= steps
    idle(web)
    with open(saved) as f:
        status, text = client.call("/api/load", f.read())
    assert status == 200 and json.loads(text)["steps"] == steps
