"""A command that needs an extra the install lacks says which in one line, exit status 1,
no traceback (issue 26). The extra is hidden here by making its module unimportable
(``None`` in ``sys.modules``, as Python's import system reads it); tests/installs tries the
same in a real core-only install."""

from __future__ import annotations

import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.cli.app import OdinCommand, OdinGroup
from odin_cards.extras import EXTRAS, MissingExtra, extra_of, installed, require
from odin_cards.games import plugin_of

runner = CliRunner()


def hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)


def only_line(output: str) -> str:
    lines = output.splitlines()
    assert len(lines) == 1, output
    assert "Traceback" not in output
    return lines[0]


def test_the_message_names_the_extra_and_how_to_install_it() -> None:
    error = MissingExtra("odin serve", "server")
    assert str(error) == "odin serve needs the server extra: pip install 'odin-cards[server]'"
    assert isinstance(error, ImportError)


def test_a_missing_module_is_reported_under_its_smallest_extra() -> None:
    assert extra_of("numpy.typing") == "bots"
    assert extra_of("openskill.models") == "arena"
    assert extra_of("fastapi") == "server"
    assert extra_of("pyspiel") == "research"
    assert extra_of("torch") == "train"
    assert extra_of("json") is None
    assert extra_of(None) is None
    assert all(extra_of(module) is not None for modules in EXTRAS.values() for module in modules)


def test_require_checks_every_module_of_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    require("join", "odin join")  # websockets is in the dev environment
    hide(monkeypatch, "websockets")
    assert not installed("join")
    with pytest.raises(MissingExtra, match=r"^odin join needs the join extra"):
        require("join", "odin join")


def test_serve_without_the_server_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    hide(monkeypatch, "uvicorn")
    result = runner.invoke(app, ["serve", "--port", "1"])
    assert result.exit_code == 1
    line = only_line(result.output)
    assert line == "odin serve needs the server extra: pip install 'odin-cards[server]'"


def test_a_server_command_names_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    hide(monkeypatch, "asyncpg")
    for name in [m for m in sys.modules if m.startswith("odin_cards.server")]:
        monkeypatch.delitem(sys.modules, name)  # odin_cards.server checks when imported
    result = runner.invoke(app, ["tables", "broken"])
    assert result.exit_code == 1
    assert only_line(result.output) == (
        "odin tables broken needs the server extra: pip install 'odin-cards[server]'"
    )


@pytest.mark.parametrize(
    "args", [["arena", "heuristic", "random", "-n", "2"], ["evaluate", "heuristic", "-n", "1"]]
)
def test_rating_commands_without_the_arena_extra(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hide(monkeypatch, "openskill")
    result = runner.invoke(app, [*args, "-j", "1"])
    assert result.exit_code == 1
    assert only_line(result.output) == (
        f"odin {args[0]} needs the arena extra: pip install 'odin-cards[arena]'"
    )


def test_a_module_of_an_extra_imported_by_any_command_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tool = typer.Typer(cls=OdinGroup, name="odin")

    @tool.command("rate", cls=OdinCommand)
    def rate() -> None:
        import openskill  # noqa: F401

    @tool.command("other", cls=OdinCommand)
    def other() -> None:
        import fictional_module_of_no_extra  # type: ignore[import-not-found]  # noqa: F401

    hide(monkeypatch, "openskill")
    result = runner.invoke(tool, ["rate"], prog_name="odin")
    assert result.exit_code == 1
    assert only_line(result.output) == (
        "odin rate needs the arena extra: pip install 'odin-cards[arena]'"
    )
    other_result = runner.invoke(tool, ["other"], prog_name="odin")
    assert isinstance(other_result.exception, ModuleNotFoundError)  # a bug, not an extra


def test_play_without_the_bots_extra_picks_the_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    from odin_cards.cli.play import default_level
    from odin_cards.odin.play.hint import strongest_level

    odin = plugin_of("odin")
    assert default_level(odin) == "search-net"
    assert strongest_level() == "expert"
    hide(monkeypatch, "numpy")
    assert default_level(odin) == "heuristic"
    assert strongest_level() == "heuristic"
    result = runner.invoke(app, ["play", "--bots", "heuristic,search,random"], input="")
    assert result.exit_code == 1
    assert only_line(result.output) == (
        "odin play --bots search needs the bots extra: pip install 'odin-cards[bots]'"
    )


@pytest.mark.parametrize(
    ("module", "hidden", "extra"),
    [
        ("odin_cards.odin.env.odin_v0", "pettingzoo", "research"),
        ("odin_cards.odin.env.single", "gymnasium", "research"),
        ("odin_cards.odin.env.vector", "gymnasium", "research"),
        ("odin_cards.odin.env.openspiel", "pyspiel", "research"),
        ("odin_cards.odin.learning.train", "torch", "train"),
    ],
)
def test_a_library_module_names_its_extra(module: str, hidden: str, extra: str) -> None:
    """Imported from Python (not through the command), a module of an extra that is not
    installed raises MissingExtra with the one line, the missing module as its cause."""
    code = (
        f"import sys; sys.modules[{hidden!r}] = None\n"
        "try:\n"
        f"    import {module}\n"
        "except ImportError as error:\n"
        "    print(type(error).__name__, '|', error, '|', type(error.__cause__).__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    kind, line, cause = done.stdout.rstrip().split(" | ")
    assert kind == "MissingExtra", done.stdout
    assert line.endswith(f"needs the {extra} extra: pip install 'odin-cards[{extra}]'")
    assert cause == "ModuleNotFoundError"
