"""The Oh My Goods! view: market, every player's buildings with goods, workers and
assistants, the seat's own hand and set-aside card, others' hand sizes."""

from __future__ import annotations

from typing import Any

from ..games.oh_my_goods_data import RESOURCES
from . import View, base_view, item, redacted, title_line, zone

# Card locations (csrc/games/oh_my_goods.h, loc[card]); 255 = hidden from the viewer.
L_DECK, L_DISCARD, L_MARKET1, L_MARKET2, L_HAND, L_ASIDE, L_BUILT, L_GOOD = 0, 1, 2, 3, 4, 8, 12, 16
SLOTS = 10
PLAYER_OBS = 36          # floats per player in the observation (observe_impl)
CARD_OBS_BASE = 6        # floats per card before the per-player pairs


def _tone(data: Any, resource: int) -> str:
    key = RESOURCES[resource - 1] if 1 <= resource <= len(RESOURCES) else "charburner"
    return data.colour_of.get(key, "")


def _card(data: Any, c: int) -> dict[str, Any]:
    b = data.cards[c]
    props: dict[str, Any] = {"cost": b.cost, "vp": b.vp}
    if b.output >= 0:
        props["makes"] = data.goods[b.output]
        props["needs"] = " ".join(RESOURCES[r - 1] for r in range(1, 6) for _ in range(b.input[r]))
        if b.input_any:
            props["needs"] = (props["needs"] + f" +{b.input_any} any").strip()
    if b.sun:
        props["sun"] = True
    return item(b.id, b.kind, "card", _tone(data, b.resource), **props)


def _public_counts(state: Any, seat: int, players: int) -> tuple[list[Any], Any]:
    """Hand sizes per seat and the draw pile size, read from the seat's observation (the
    redacted state blanks cards the seat has not seen, so it cannot count them). The layout
    is observe_impl's in csrc/games/oh_my_goods.c; if its length changes, "?" is shown."""
    obs = state.observation(seat)
    base = 94 * (CARD_OBS_BASE + 2 * players)
    deck_at = base + players * PLAYER_OBS + 8 * (players + 4) + 16 + 2
    if len(obs) != deck_at + 4 + 2 * players + 6:
        return ["?"] * players, "?"
    hands: list[Any] = [0] * players
    for r in range(players):
        hands[(seat + r) % players] = int(round(float(obs[base + r * PLAYER_OBS]) * 10))
    return hands, int(round(float(obs[deck_at]) * 94))


def view(state: Any, seat: int) -> View:
    g = state.game
    d = g.data
    n = g.players
    s = redacted(state, seat)
    loc = s["loc"]
    hands, deck = _public_counts(state, seat, n)

    def slot_building(p: int, k: int) -> Any:
        return d.charburners[s["charburner"][p]] if k == 0 else d.cards[s["slot_card"][p][k]]

    def gold(p: int) -> int:
        if s["charburner"][p] < 0:
            return 0
        total = 0
        for k in range(s["n_slots"][p]):
            out = slot_building(p, k).output
            total += s["goods_n"][p][k] * (d.good_values[out] if out >= 0 else 0)
        return total

    def score(p: int) -> int:
        if s["charburner"][p] < 0:
            return 0
        vp = slot_building(p, 0).vp + sum(slot_building(p, k).vp for k in range(1, s["n_slots"][p]))
        vp += sum(d.assistants[a].sides[s["asst_side"][a]].vp for a in range(8) if s["asst_owner"][a] == p)
        return vp + gold(p) // 5

    scores = [float(score(p)) for p in range(n)]
    v = base_view(state, seat, title_line(state), scores)
    market = [_card(d, c) for c in range(len(loc)) if loc[c] in (L_MARKET1, L_MARKET2)]
    display = [item(a.id, "assistant", "token", "", side=s["asst_side"][i], cost=a.sides[s["asst_side"][i]].cost,
                    vp=a.sides[s["asst_side"][i]].vp)
               for i, a in enumerate(d.assistants) if s["asst_owner"][i] == -1]
    v["board"] = [zone("market", market, f"draw pile {deck}"), zone("assistants on display", display)]
    for p in range(n):
        buildings = []
        for k in range(s["n_slots"][p]):
            b = slot_building(p, k)
            it = _card(d, s["slot_card"][p][k]) if k else item(b.id, b.kind, "card", _tone(d, 0), vp=b.vp,
                                                                makes=d.goods[b.output])
            it["props"]["slot"] = k
            it["props"]["goods"] = s["goods_n"][p][k]
            if s["worker_slot"][p] == k:
                it["props"]["worker"] = "exact" if s["worker_exact"][p] else "short"
            helpers = [d.assistants[a].id for a in range(8) if s["asst_owner"][a] == p and s["asst_slot"][a] == k]
            if helpers:
                it["props"]["assistants"] = " ".join(helpers)
            buildings.append(it)
        zones = [zone("buildings", buildings)]
        if p == seat:
            hand = []
            for c in range(len(loc)):
                if loc[c] == L_HAND + p:
                    hand.append(_card(d, c))
                    if (s["pending"][p][c // 64] >> (c % 64)) & 1:
                        hand[-1]["props"]["chosen"] = True    # marked by this phase's choices
            zones.insert(0, zone("your hand", hand))
            aside = [c for c in range(len(loc)) if loc[c] == L_ASIDE + p or s["pend_aside"][p] == c]
            if aside:
                zones.insert(1, zone("set aside", [_card(d, c) for c in aside]))
        else:
            aside = [_card(d, c) for c in range(len(loc)) if loc[c] == L_ASIDE + p]
            if s["aside"][p] == 127:
                aside.append(item("?", "face-down card", "card", "hidden"))
            if aside:
                zones.append(zone("set aside", aside))
        facts = {"vp": score(p), "gold": gold(p), "hand": hands[p]}
        if s["start"] == p:
            facts["start player"] = True
        v["seats"].append({"seat": p, "name": f"P{p}", "facts": facts, "zones": zones})
    return v
