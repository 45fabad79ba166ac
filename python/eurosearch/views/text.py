"""A view drawn as terminal text, with ANSI colours when asked."""

from __future__ import annotations

from typing import Any

from . import View

#: tone -> ANSI SGR code (foreground); unknown tones are left plain
ANSI = {"yellow": "33", "green": "32", "red": "31", "black": "90", "blue": "34", "lightblue": "36",
        "white": "97", "grey": "37", "brown": "33", "gold": "93", "purple": "35", "hidden": "2", "orange": "33"}


def _props(props: dict[str, Any]) -> str:
    parts = [k if v is True else f"{k} {v}" for k, v in props.items() if v not in ("", None, False)]
    return f" ({', '.join(parts)})" if parts else ""


def _item(it: dict[str, Any], color: bool, detail: bool) -> str:
    text = it["label"]
    if detail:
        if it["name"] and it["kind"] == "card":
            text += f" {it['name']}"
        text += _props(it["props"])
    code = ANSI.get(it.get("tone", ""))
    return f"\x1b[{code}m{text}\x1b[0m" if color and code else text


def _zone(z: dict[str, Any], color: bool, indent: str) -> list[str]:
    cubes = all(it["kind"] in ("cube", "die") or (not it["props"] and it["kind"] != "card") for it in z["items"])
    head = f"{indent}{z['title']}:" + (f" [{z['note']}]" if z["note"] else "")
    if not z["items"]:
        return [head + " -"]
    if cubes or len(z["items"]) == 1:
        return [head + " " + " ".join(_item(it, color, not cubes) for it in z["items"])]
    return [head] + [f"{indent}  {_item(it, color, True)}" for it in z["items"]]


def render(v: View, color: bool = False) -> str:
    """The whole view: title, shared board, then one block per seat (the viewer marked)."""
    lines = [v["title"]]
    for z in v["board"]:
        lines += _zone(z, color, "")
    for st in v["seats"]:
        mark = " (you)" if st["seat"] == v["seat"] else ""
        turn = " <- to move" if v["to_move"] == st["seat"] else ""
        facts = ", ".join(k if val is True else f"{k} {val}" for k, val in st["facts"].items())
        lines.append(f"{st['name']}{mark}: {facts}{turn}")
        for z in st["zones"]:
            lines += _zone(z, color, "    ")
    return "\n".join(lines)
