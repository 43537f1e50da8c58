"""Reading what the player types: bare cards, notation, choice numbers, command words."""

from __future__ import annotations

import pytest

from odin_cards.odin.play.commands import parse_command
from odin_cards.odin.rules import PASS_ACTION, parse_action

CHOICES = [parse_action("play B3"), parse_action("play B3 B7"), PASS_ACTION]


@pytest.mark.parametrize(
    ("text", "decision", "action"),
    [
        ("b7 b3", "follow", "play B3 B7"),
        ("B7,b3", "follow", "play B3 B7"),
        ("  PLAY b7 B3 ", "follow", "play B3 B7"),
        ("r5", "lead", "play R5"),
        ("r5", "take", "take R5"),
        ("take r5", "take", "take R5"),
        ("Pass", "follow", "pass"),
        ("2", "follow", "play B3 B7"),
        ("3", "follow", "pass"),
    ],
)
def test_actions(text: str, decision: str, action: str) -> None:
    command = parse_command(text, decision, CHOICES)
    assert command.kind == "act"
    assert command.action == parse_action(action)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("help", "help"),
        ("?", "help"),
        ("QUIT", "quit"),
        ("q", "quit"),
        ("sort", "sort"),
        ("hint", "hint"),
        ("show", "show"),
        ("log", "log"),
        ("   ", "empty"),
    ],
)
def test_command_words(text: str, kind: str) -> None:
    assert parse_command(text, "lead", CHOICES).kind == kind


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4", "there is no choice 4: choose 1 to 3"),
        ("0", "there is no choice 0: choose 1 to 3"),
        ("b3 r7", "B3 R7 is not a set: cards of a set must all share one colour or one number"),
        ("b3 b3", "B3 is named twice"),
        ("b3 zz", "'zz' is not a card"),
        ("dance", "unknown command 'dance'"),
        ("take", "name at least one card"),
        ("pass b3", "pass takes no cards"),
    ],
)
def test_unreadable_input_is_explained(text: str, message: str) -> None:
    command = parse_command(text, "follow", CHOICES)
    assert command.kind == "error"
    assert message in command.message
