"""Issue 14's play defects: secret seed, separate bot randomness, the finishing lead's prompt,
sentences that read right for "You", leaving one way (Ctrl-C included), undo and resume."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.odin.bots import Bot, Budget, Level, added_level
from odin_cards.odin.play.session import BotSeat, PlaySession
from odin_cards.odin.play.words import event_line, verb
from odin_cards.odin.rules import Action, Game, GameRecord, Options, View

runner = CliRunner()

SUITED = [[f"B{n}" for n in range(1, 10)], [f"R{n}" for n in range(1, 10)]]
"""A deal in which seat 0 holds nine blue cards: its first lead may be the whole hand."""


def session(
    game: Game,
    lines: Sequence[str],
    name: str = "You",
    level: str = "random",
    bot_seed: str = "1",
) -> tuple[PlaySession, io.StringIO, list[str]]:
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False, color_system=None)
    prompts: list[str] = []
    feed = iter(lines)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    bots = {seat: BotSeat(level, Budget()) for seat in range(1, game.players)}
    names = [name] + [f"Bot {seat}" for seat in bots]
    return PlaySession(game, names, bots, 0, console, read, bot_seed=bot_seed), out, prompts


def test_the_finishing_lead_is_offered_in_the_prompt_and_marked_among_the_choices() -> None:
    game = Game.new(2, Options(one_hand=True, first_leader=0), seed=1, deals=[SUITED])
    play, out, prompts = session(game, ["b1 b2 b3 b4 b5 b6 b7 b8 b9"])
    assert play.run() == "over"
    text = out.getvalue()
    assert prompts == ["You, lead one card, or your whole hand to end the hand > "]
    assert re.search(r"10\)\s+B1\s+B2.*B9\s+\(987654321\) whole hand: ends the hand", text)
    assert "R1 R2 R3 R4 R5 R6 R7 R8 R9" in text  # every player's cards left when a hand ends
    # "You" takes the verb's plain form: no "You emptied their hand", no "You wins!".
    assert "Hand 1 is over: You emptied your hand." in text
    assert "You win! Well played." in text
    assert "You wins" not in text and "their hand" not in text


def test_a_lead_without_the_finishing_lead_asks_for_one_card() -> None:
    game = Game.new(2, Options(first_leader=0), seed=3)
    play, _, prompts = session(game, ["quit"])
    assert play.run() == "left"
    assert prompts == ["You, lead one card > "]


def test_sentences_agree_with_you_and_with_other_names() -> None:
    names = ["You", "Ada"]
    assert verb("You", "leads", "lead") == "You lead"
    assert verb("Ada", "leads", "lead") == "Ada leads"
    assert event_line({"type": "deal", "hand": 1, "leader": 0}, names) == "hand 1: You lead"
    assert event_line({"type": "round", "leader": 1}, names) == "  round over, Ada leads"
    assert event_line({"type": "game_end", "winners": [0]}, names) == "game over: You win"
    assert event_line({"type": "game_end", "winners": [1]}, names) == "game over: Ada wins"
    line = event_line({"type": "game_end", "winners": [0, 1]}, names)
    assert line == "game over: You, Ada share the victory"


def test_the_log_of_the_default_name_reads_right_through_the_command() -> None:
    result = runner.invoke(
        app, ["play", "-p", "2", "--bots", "random", "--first-leader", "0"], input="log\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "hand 1: You lead" in result.output
    assert "You leads" not in result.output


def test_names_are_shown_as_written_never_as_markup(tmp_path: Path) -> None:
    for name in ("[/]", "[red]Ada[/red]", "[bold"):
        result = runner.invoke(
            app,
            ["play", "-p", "2", "--bots", "random", "--first-leader", "0", "--name", name],
            input="log\nquit\n",
        )
        assert result.exit_code == 0, (name, result.output)
        assert f"Odin: {name} against Random 1" in result.output
        assert f"{name}, lead one card > " in result.output
        assert f"hand 1: {name} leads" in result.output
        assert f"Game left in hand 1; scores so far: {name} 0" in result.output


def test_the_deal_is_secret_long_and_never_printed(tmp_path: Path) -> None:
    seeds = []
    for number in range(2):
        record = tmp_path / f"game{number}.json"
        result = runner.invoke(
            app,
            ["play", "-p", "2", "--bots", "random", "--record", str(record)],
            input="quit\n",
        )
        assert result.exit_code == 0, result.output
        seed = json.loads(record.read_text())["seed"]
        assert isinstance(seed, str) and re.fullmatch(r"[0-9a-f]{32}", seed)  # 128 bits
        assert seed not in result.output and "seed" not in result.output
        seeds.append(seed)
    assert seeds[0] != seeds[1]


def test_the_bots_randomness_is_not_the_deals() -> None:
    """Same deal, different bot seeds: the random bots choose differently."""

    def first_moves(bot_seed: str) -> list[str]:
        game = Game.new(4, Options(first_leader=1), seed=5)
        play, _, _ = session(game, [], bot_seed=bot_seed)
        play.run()  # the bots move until the person's turn, then input ends
        return [str(event) for event in game.view(None).history]

    moves = {tuple(first_moves(str(seed))) for seed in range(6)}
    assert len(moves) > 1


class InterruptedBot(Bot):
    """Test-only level: Ctrl-C arrives while it thinks."""

    level = "interrupted"

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        raise KeyboardInterrupt


@pytest.fixture
def interrupted_level() -> Iterator[str]:
    with added_level(Level("interrupted", InterruptedBot), "Dreamer", "test"):
        yield "interrupted"


def test_ctrl_c_while_a_bot_thinks_leaves_like_quit(interrupted_level: str, tmp_path: Path) -> None:
    record = tmp_path / "left.json"
    args = ["play", "-p", "2", "--bots", "interrupted", "--first-leader", "1"]
    result = runner.invoke(app, [*args, "--record", str(record)], input="")
    assert result.exit_code == 130, result.output
    assert "Interrupted (Ctrl-C): leaving the game." in result.output
    assert "Game left in hand 1; scores so far: You 0 · Dreamer 1 0" in result.output
    assert GameRecord.from_json(record.read_text()).replay().hand_number == 0
    assert "Traceback" not in result.output


def test_ctrl_c_at_the_prompt_leaves_the_same_way(tmp_path: Path) -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    game = Game.new(2, Options(first_leader=0), seed=2)
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    bots = {1: BotSeat("random", Budget())}
    play = PlaySession(game, ["Ada", "Bot"], bots, 0, console, interrupt)
    assert play.run() == "interrupted"
    assert "Game left in hand 1; scores so far: Ada 0 · Bot 0" in out.getvalue()


def test_undo_takes_back_the_last_move_and_the_bots_replies() -> None:
    game = Game.new(2, Options(first_leader=0), seed=8)
    play, out, _ = session(game, ["undo", "1", "undo", "quit"])
    assert play.run() == "left"
    text = out.getvalue()
    assert "✗ nothing to take back: this is your first move" in text
    assert "Taken back: your last move and the bots' moves since." in text
    # After the undo the game is where it started: the deal and nothing else.
    assert [e["type"] for e in play.game.view(None).history] == ["deal"]


def unwrapped(text: str) -> str:
    """``text`` without its white space: Rich breaks a long path anywhere, even inside it."""
    return "".join(text.split())


def test_a_game_left_with_record_is_resumed(tmp_path: Path) -> None:
    record = tmp_path / "saved.json"
    args = ["play", "-p", "3", "--bots", "random,heuristic", "--name", "Ada", "--first-leader", "0"]
    first = runner.invoke(app, [*args, "--record", str(record)], input="1\nquit\n")
    assert first.exit_code == 0, first.output
    assert unwrapped(f"odin play --resume {record} plays on") in unwrapped(first.output)
    saved = GameRecord.from_json(record.read_text()).replay()
    moves = len(saved.view(None).history)
    second = runner.invoke(app, ["play", "--resume", str(record)], input="1\n" * 3000)
    assert second.exit_code == 0, second.output
    assert "Ada against Random 1, Heuristic 2; target 15; resumed." in second.output
    assert "Final standings" in second.output
    done = GameRecord.from_json(record.read_text()).replay()
    assert done.is_over and done.view(None).history[:moves] == saved.view(None).history
    again = runner.invoke(app, ["play", "--resume", str(record)], input="")
    assert again.exit_code == 1
    assert unwrapped(again.output).endswith(
        unwrapped(f"that game is over (odin replay {record} shows it)")
    )


def test_log_all_shows_the_whole_game_with_names() -> None:
    game = Game.new(2, Options(first_leader=0, target=30), seed=4)
    script = ["1"] * 400 + ["log all", "quit"]

    def until_hand_two(prompt: str) -> str:
        if game.hand_number >= 1 and script[0] == "1":
            del script[: script.index("log all")]
        return script.pop(0)

    play, out, _ = session(game, [], name="Ada")
    play.read_line = until_hand_two
    assert play.run() == "left"
    text = out.getvalue()
    log = text[text.index("Hand 2 · lead") :]  # what was printed during the second hand
    assert "  hand 1: Ada leads" in log  # the earlier hand's moves too, with names
    assert "  Ada: play" in log and "  Bot 1: " in log


def test_a_pause_comes_between_hands_not_before_the_first() -> None:
    game = Game.new(2, Options(first_leader=0, target=12), seed=6)
    play, _, _ = session(game, ["1"] * 2000)
    pauses: list[int] = []
    play.pause = lambda: pauses.append(play.game.hand_number)
    assert play.run() == "over"
    outcome = game.outcome
    assert outcome is not None and outcome.hands_played >= 2
    assert pauses == list(range(1, outcome.hands_played))  # before hands 2, 3, ...
