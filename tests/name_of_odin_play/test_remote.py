"""``odin join``'s screen of In the Name of Odin, on a seat's state as the server sends it:
numbers, the notation and unique beginnings read here; anything else goes to the server."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from odin_cards.name_of_odin.play.remote import NooScreen
from odin_cards.name_of_odin.rules import NAME_OF_ODIN


def table_state() -> dict[str, Any]:
    """The seat to move's ``State`` (its view, with names), at the start of a game."""
    game = NAME_OF_ODIN.new_game(2, {}, seed=4)
    seat = game.current_player
    assert seat is not None
    state: dict[str, Any] = dict(game.view(seat))
    state.update(names=["Ada", "Bo"], seat=seat)
    return state


def screen() -> tuple[NooScreen, io.StringIO]:
    out = io.StringIO()
    return NooScreen(Console(file=out, width=160, color_system=None)), out


def test_the_seat_to_move_sees_the_table_and_its_choices() -> None:
    noo, out = screen()
    state = table_state()
    noo.position(state, [])
    shown = out.getvalue()
    assert "Your hand:" in shown and "your turn: act, or end" in shown
    assert noo.prompt(state, []) == f"{state['names'][state['seat']]}, your turn: act, or end > "


def test_numbers_text_and_unique_beginnings_name_legal_actions() -> None:
    noo, out = screen()
    state = table_state()
    legal = state["legal"]
    assert noo.read("1", state, []) == legal[0]
    assert noo.read(legal[-1].upper(), state, []) == legal[-1]
    assert noo.read("en", state, []) == "end"  # a unique beginning
    assert noo.read(str(len(legal) + 1), state, []) is False
    assert "choose a number from 1 to" in out.getvalue()
    several = [text for text in legal if text.startswith("swap")]
    if len(several) > 1:
        assert noo.read("swap", state, []) is False
        assert f"{len(several)} actions start that way" in out.getvalue()


def test_other_lines_go_to_the_server_and_commands_stay_here() -> None:
    noo, out = screen()
    state = table_state()
    assert noo.read("raid nowhere", state, []) == "raid nowhere"  # the server judges it
    assert noo.read("hint", state, []) is False
    assert "hint is for games against bots" in out.getvalue()
    assert noo.read("help", state, []) is False and "swap WC SH" in out.getvalue()
    assert noo.read("quit", state, []) is True
    assert not noo.over(state) and noo.over({**state, "outcome": {"winners": [0]}})
