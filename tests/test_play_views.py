"""Per-game views show a seat only what it may see; moves and records."""

from __future__ import annotations

import json
import random
import re

import pytest

import eurosearch as es
from eurosearch.errors import StateFormatError
from eurosearch.play import Session, load_record, parse_record
from eurosearch.play.moves import grouped_moves, public_text, visible_to
from eurosearch.play.record import data_fingerprint, game_of, replay_states
from eurosearch.views import generic_view, view
from eurosearch.views.text import render


def omg_hidden_ids(state, seat: int) -> set[str]:
    """Oh My Goods! card ids `seat` has not seen (unique per physical card)."""
    full = json.loads(state.to_json())["state"]
    cards = state.game.data.cards
    return {cards[c].id for c in range(len(cards)) if not (full["seen"][c] >> seat) & 1}


def tokens(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_]+\d+", text))


def random_game(name: str, players: int, seed: int):
    g = es.game(name, players=players)
    s = g.initial_state()
    rng = random.Random(seed)
    while not s.is_terminal():
        yield s
        s.apply(s.sample_chance(rng.getrandbits(63)) if s.is_chance() else rng.choice(s.legal_moves()))
    yield s


def test_an_oh_my_goods_view_never_names_an_unseen_card() -> None:
    checked = 0
    for k, s in enumerate(random_game("oh_my_goods", 3, seed=5)):
        if k % 7:
            continue
        for seat in range(3):
            v = view(s, seat)
            shown = tokens(json.dumps(v))
            assert not shown & omg_hidden_ids(s, seat), (k, seat)
            checked += 1
    assert checked > 100


def test_an_oh_my_goods_view_shows_the_own_hand_and_public_counts() -> None:
    g = es.game("oh_my_goods", players=2)
    s = g.new_state(seed=3)
    full = json.loads(s.to_json())["state"]
    for seat in range(2):
        v = view(s, seat)
        mine = {c.id for c, loc in zip(g.data.cards, full["loc"]) if loc == 4 + seat}
        hand = next(z for z in v["seats"][seat]["zones"] if z["title"] == "your hand")
        assert {it["label"] for it in hand["items"]} == mine
        for p in range(2):     # hand sizes come from the observation and are right for everyone
            assert v["seats"][p]["facts"]["hand"] == sum(1 for loc in full["loc"] if loc == 4 + p)
        assert v["scores"] == s.scores()
        market = next(z for z in v["board"] if z["title"] == "market")
        assert market["note"] == f"draw pile {sum(1 for loc in full['loc'] if loc == 0)}"


def test_coal_baron_hides_another_players_draw5_look() -> None:
    seen_hidden = 0
    for s in random_game("coal_baron", 2, seed=2):
        full = json.loads(s.to_json())["state"]
        if not full["buf_kind"]:
            continue
        other = 1 - full["turn"]
        look = next(z for z in view(s, other)["board"] if z["title"].startswith("draw-5"))
        labels = {it["label"] for it in look["items"]}
        if full["buf_kind"] and labels == {"??"}:
            seen_hidden += 1
        assert labels <= {"??"} or all(it["kind"] == "card" for it in look["items"])
        own = next(z for z in view(s, full["turn"])["board"] if z["title"].startswith("draw-5"))
        assert "??" not in {it["label"] for it in own["items"]}
    assert seen_hidden > 0


@pytest.mark.parametrize("name,players", [("vienna", 3), ("coal_baron", 3), ("oh_my_goods", 4)])
def test_every_view_and_text_renders_through_a_whole_game(name: str, players: int) -> None:
    for k, s in enumerate(random_game(name, players, seed=1)):
        if k % 11 == 0 or s.is_terminal():
            for seat in range(players):
                v = view(s, seat)
                assert len(v["seats"]) == players and v["seat"] == seat
                assert render(v).startswith(v["title"])
                json.dumps(v)
                if name == "oh_my_goods":      # public counts from the observation, right all game long
                    loc = json.loads(s.to_json())["state"]["loc"]
                    assert [st["facts"]["hand"] for st in v["seats"]] == [loc.count(4 + p) for p in range(players)]
    assert v["over"] and v["scores"] == s.scores()


def test_the_generic_view_serves_a_game_without_its_own() -> None:
    s = es.game("vienna", players=3).new_state(seed=1)
    v = generic_view(s, 0)
    assert v["board"][0]["items"] and render(v)
    with pytest.raises(ValueError, match="seat must be"):
        view(s, 3)


def test_moves_are_grouped_by_kind_numbered_from_one_and_stable() -> None:
    s = es.game("vienna", players=3).new_state(seed=4)
    while s.current_player >= 0 and len({m.split()[0] for m in map(s.move_to_str, s.legal_moves())}) < 2:
        s.apply(s.legal_moves()[0] if not s.is_chance() else s.sample_chance(1))
        while s.is_chance():
            s.apply(s.sample_chance(2))
    a, b = grouped_moves(s), grouped_moves(s.clone())
    assert a == b and [c.number for c in a] == list(range(1, len(a) + 1))
    kinds = [c.kind for c in a]
    assert kinds == sorted(kinds, key=kinds.index)            # each kind in one block
    assert sorted(c.move for c in a) == sorted(s.legal_moves())


def test_an_opponents_draw_is_hidden_and_my_own_is_shown() -> None:
    g = es.game("oh_my_goods", players=2)
    s = g.initial_state()
    rng = random.Random(1)
    checked = 0
    while not s.is_terminal() and checked < 20:
        if s.is_chance():
            full = json.loads(s.to_json())["state"]
            o = s.sample_chance(rng.getrandbits(63))
            if s.move_to_str(o).startswith("draw") and full["draw_dest"] == 1:     # into a hand
                owner = full["draw_player"]
                assert visible_to(s, o, owner)
                assert not visible_to(s, o, 1 - owner)
                assert public_text(s, o, 1 - owner) == "draw (hidden)"
                checked += 1
            s.apply(o)
        else:
            s.apply(rng.choice(s.legal_moves()))
    assert checked == 20


def test_a_record_replays_and_refuses_other_data_or_corruption(tmp_path) -> None:
    g = es.game("coal_baron", players=2)
    sess = Session(g, ["random", "random"], seed=9)
    sess.run_ais()
    assert sess.state.is_terminal()
    path = tmp_path / "r.json"
    sess.record.save(path)
    rec = load_record(path)
    assert rec.history() == sess.record.history()
    assert replay_states(game_of(rec), rec)[-1].to_bytes() == sess.state.to_bytes()
    doc = json.loads(path.read_text())
    doc["fingerprint"] = "0" * 16
    with pytest.raises(StateFormatError, match="other component data"):
        game_of(parse_record(json.dumps(doc)))
    doc = json.loads(path.read_text())
    doc["steps"][5]["move"] += 1
    with pytest.raises(StateFormatError, match="step 6"):
        Session.from_record(parse_record(json.dumps(doc)))
    doc = json.loads(path.read_text())
    doc["steps"][3]["alternatives"] = [{"oops": 1}]
    with pytest.raises(StateFormatError, match="step 4: alternatives"):
        parse_record(json.dumps(doc))
    doc = json.loads(path.read_text())
    doc["seats"] = ["random"]
    with pytest.raises(StateFormatError, match="1 seats for 2 players"):
        parse_record(json.dumps(doc))
    for bad in ("{", "[]", '{"format": 1}', path.read_text()[:200]):
        with pytest.raises(StateFormatError, match="bad game record"):
            parse_record(bad)
    with pytest.raises(StateFormatError, match="cannot read"):
        load_record(tmp_path / "missing.json")


def test_the_fingerprint_changes_with_the_options() -> None:
    a = es.game("vienna", players=3)
    b = es.game("vienna", players=3, options={"carriage": "furthest"})
    assert data_fingerprint(a) == data_fingerprint(es.game("vienna", players=3))
    assert data_fingerprint(a) != data_fingerprint(b)


def test_undo_goes_back_any_number_of_moves() -> None:
    s = Session(es.game("vienna", players=3), ["human", "random", "random"], seed=1)
    s.run_ais()
    before = []
    for _ in range(4):
        before.append((len(s.record.steps), s.state.clone()))
        s.play(s.choices()[0].move)
        s.run_ais()
    for n, st in reversed(before):
        s.undo()
        assert len(s.record.steps) == n and s.state == st
    assert s.undo() == 0


def test_the_hint_depends_only_on_what_the_seat_has_seen() -> None:
    s = Session(es.game("oh_my_goods", players=2), ["human", "random"], seed=2)
    s.run_ais()
    for _ in range(8):
        s.play(s.choices()[-1].move)
        s.run_ais()
    hint = s.hint(0, "ismcts:iterations=300")
    other = s.state.determinize(0, 99)            # another world the seat cannot tell apart
    assert other.to_json() != s.state.to_json() and other.to_json(viewer=0) == s.state.to_json(viewer=0)
    s.states[-1] = other
    assert s.hint(0, "ismcts:iterations=300").top == hint.top


@pytest.mark.parametrize("name", [n for n in es.games() if es.game(n, players=es.game_spec(n).min_players).has_hidden_information])
def test_the_play_log_hides_every_move_the_game_hides(name):
    """public_text shows a move's text only when the game's move_view gives the move itself:
    the redaction check alone lets through a face-down card that is its owner's only one of
    a colour (no other legal move gives the same view), which the log must not name."""
    g = es.game(name, players=es.game_spec(name).min_players)
    s, rng, hidden = g.initial_state(), random.Random(2), 0   # from the setup: its deals are hidden too
    for _ in range(250):
        if s.is_terminal():
            break
        moves = [o for o, _ in s.chance_outcomes()] if s.is_chance() else s.legal_moves()
        m = rng.choice(moves)
        for viewer in range(g.players):
            if s.move_view(m, viewer) != m:
                hidden += 1
                assert public_text(s, m, viewer).endswith("(hidden)")
        s.apply(m)
    assert hidden > 0
