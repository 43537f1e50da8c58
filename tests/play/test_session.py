"""Terminal play driven end to end: a scripted player, piped input, summaries, errors, hints."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.odin.bots import Bot, Budget, Level, added_level
from odin_cards.odin.play.hint import describe, give_hint
from odin_cards.odin.play.session import BotSeat, PlaySession
from odin_cards.odin.rules import (
    Action,
    Game,
    GameRecord,
    Options,
    View,
    is_set,
    parse_action,
    parse_card,
)
from odin_cards.odin.rules.cards import mask_of

runner = CliRunner()


def make_session(
    game: Game,
    read_line: Callable[[str], str],
    hint_level: str | None = None,
    name: str = "Ada",
    level: str = "random",
    bot_seed: str = "1",
) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False, color_system=None)
    bots = {seat: BotSeat(level, Budget()) for seat in range(1, game.players)}
    names = [name] + [f"Bot {seat}" for seat in bots]
    session = PlaySession(
        game, names, bots, 0, console, read_line, bot_seed=bot_seed, hint_level=hint_level
    )
    return session, out


class ScriptedPlayer:
    """Types like a person: cards in any order and case, sometimes a mistake first."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.prompts: list[str] = []
        self.expected_errors: list[str] = []
        self.pending: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.pending:
            return self.pending.pop()
        view = self.game.view(0)
        legal = self.game.legal_actions()
        action = legal[self.rng.randrange(len(legal))]
        if self.rng.random() < 0.2:
            # A card this player does not hold: the engine explains, the prompt returns.
            held = set(view.hand or ())
            missing = next(c for c in ("B1", "R2", "P3", "G4", "K5", "O6") if c not in held)
            wrong = parse_action(f"play {missing}")
            problem = self.game.problem(wrong)
            if problem is not None and view.decision != "take":
                self.expected_errors.append(problem)
                self.pending.append(self.type(action))
                return f"play {missing.lower()}"
        return self.type(action)

    def type(self, action: Action) -> str:
        if action.is_pass:
            return self.rng.choice(["pass", "PASS", " pass "])
        cards = [c.lower() if self.rng.random() < 0.5 else c for c in action.cards]
        self.rng.shuffle(cards)
        return " ".join(cards)


@pytest.mark.parametrize("players", [2, 4])
def test_a_scripted_player_plays_a_whole_game(players: int) -> None:
    game = Game.new(players, Options(target=12), seed=players)
    player = ScriptedPlayer(game, seed=players)
    session, out = make_session(game, player)
    assert session.run() == "over"
    text = out.getvalue()
    outcome = game.outcome
    assert outcome is not None
    assert len(player.prompts) > 10
    assert player.expected_errors, "the script made no mistake to be corrected"
    for message in player.expected_errors:
        assert f"✗ {message}" in text
    assert text.count("is over:") == outcome.hands_played
    assert "Final standings" in text
    winners = [session.names[s] for s in outcome.winners]
    if len(winners) == 1:
        assert f"{winners[0]} wins!" in text
    else:
        assert "share the victory!" in text
    for seat, name in enumerate(session.names):
        assert (f"{name} (winner)" in text) == (seat in outcome.winners)


def test_illegal_input_gets_the_engines_explanation_and_a_new_prompt() -> None:
    game = Game.new(3, Options(first_leader=0), seed=9)
    hand = game.view(0).hand or ()
    pair = next((a, b) for a in hand for b in hand if a < b and (a[0] == b[0] or a[1] == b[1]))
    two = parse_action(f"play {pair[0]} {pair[1]}")
    lines = iter(["pass", f"{pair[1].lower()} {pair[0]}", "play B0", "sort", "log", "show", "quit"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(lines)

    session, out = make_session(game, read)
    assert session.run() == "left"
    text = out.getvalue()
    assert "✗ the leader cannot pass" in text
    assert game.problem(two) is not None
    assert f"✗ {game.problem(two)}" in text  # "the leader plays one card, or ..."
    assert "✗ 'B0' is not a card" in text
    assert "Your hand (9 cards, by number)" in text
    assert "  hand 1: Ada leads" in text  # log
    assert text.count("Your choices:") == 2  # show
    assert len(prompts) == 7 and all(p == "Ada, lead one card > " for p in prompts)
    assert "You leave the game." in text and "Game left in hand 1; scores so far" in text
    assert [e["type"] for e in game.view(None).history] == ["deal"]  # nothing was played


def test_piped_input_plays_a_whole_game_through_the_command(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app,
        [
            *("play", "--players", "3", "--bots", "random", "--target", "10", "--seed", "2"),
            *("--name", "Ada", "--record", str(record)),
        ],
        input="1\n" * 3000,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Ada against Random 1, Random 2; target 10." in out
    assert "Ada, lead one card > " in out or "Ada, beat" in out
    assert "Hand 1 is over" in out and "Final standings" in out
    assert "Input ended" not in out
    data = json.loads(record.read_text())
    assert data["seats"] == [
        {"name": "Ada", "bot": None},
        {"name": "Random 1", "bot": "random"},
        {"name": "Random 2", "bot": "random"},
    ]
    game = GameRecord.from_json(record.read_text()).replay()
    assert game.outcome is not None and max(game.outcome.scores) >= 10
    assert f"Game over after {game.outcome.hands_played} hand" in out
    assert "\x1b[" not in out  # no colour or cursor codes in a pipe


def test_end_of_input_leaves_cleanly() -> None:
    result = runner.invoke(app, ["play", "--bots", "random", "--first-leader", "0"], input="")
    assert result.exit_code == 0, result.output
    assert "Input ended: leaving the game." in result.output
    assert "Traceback" not in result.output


def test_hint_help_and_bad_flags_through_the_command() -> None:
    result = runner.invoke(
        app,
        [
            *("play", "-p", "2", "--bots", "random", "--first-leader", "0", "--seed", "4"),
            *("--hint-level", "random"),
        ],
        input="help\nhint\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "hint             what the strongest bot would do" in result.output
    assert "hint: Random would play" in result.output
    for args, message in [
        (["--bots", "random,random"], "give one level for all bots or one per bot seat (3)"),
        (["--bots", "wizard"], "unknown bot level 'wizard'"),
        (["--hint-level", "wizard"], "unknown bot level 'wizard'"),
        (["--players", "9"], "2 to 6 players"),
        (["--name", "Random 1", "--bots", "random"], "is a bot's name"),
    ]:
        bad = runner.invoke(app, ["play", *args], input="")
        assert bad.exit_code == 2, (args, bad.output)
        lines = bad.output.splitlines()
        assert len(lines) == 1 and lines[0].startswith("odin play: ") and message in lines[0]


class ExplainingBot(Bot):
    """Test-only level that gives its reason with its move."""

    level = "explaining"

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        return legal[-1]

    def explain(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> tuple[Action, str]:
        return legal[-1], f"the last of {len(legal)} choices"


@pytest.fixture
def explaining_level() -> Iterator[str]:
    with added_level(Level("explaining", ExplainingBot), "Explainer", "test"):
        yield "explaining"


def test_hint_uses_the_bots_own_reason_when_it_has_one(explaining_level: str) -> None:
    game = Game.new(2, Options(first_leader=0), seed=1)
    hint = give_hint(explaining_level, game, random.Random(1))
    legal = game.legal_actions()
    assert hint.action == legal[-1]
    assert hint.line() == f"Explainer would {legal[-1].text}: the last of {len(legal)} choices"


def test_hint_reasons_describe_the_move() -> None:
    game = Game.new(2, Options(first_leader=0), seed=3)
    view = game.view(0)
    legal = game.legal_actions()
    lowest = min((a for a in legal if a.size == 1), key=lambda a: a.value)
    reason = describe(view, lowest, legal)
    assert reason.startswith("a single lead of your lowest card; you keep ")
    rest = [c for c in view.hand or () if c not in lowest.cards]
    split = reason.split(" sets: ")[-1].split(" · ")
    assert sorted(" ".join(split).split()) == sorted(rest)  # the rest, split into sets
    assert all(is_set(mask_of(parse_card(c) for c in s.split())) for s in split)
    hint = give_hint("random", game, random.Random(2))
    assert hint.action in legal and hint.reason
