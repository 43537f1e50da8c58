"""The game plugin contract: everything a game brings to the platform.

A game joins odin-cards by publishing one :class:`GamePlugin` in the entry-point group
:data:`GROUP` (``[project.entry-points."odin_cards.games"]`` in its package's
``pyproject.toml``); :mod:`odin_cards.games` collects them. The server, the command line,
the tools and the workers ask that registry and never import a game: a package installed
beside odin-cards adds a game without a change to this repository.

A plugin object is light. Its facts (key, name, bot levels, Play now presets, whether it
can be rated) are plain data; every heavy part (the rules, the bots, the presenter of a
seat's state, the terminal game, the analysis) is named by a *reference*,
``"package.module:attribute"``, imported the first time it is used. So the registry lists
games without importing one, the web process never loads a game's bots (only the bot
workers do), and a game's parts load where they run.

Standard library only, like :mod:`odin_cards.contract` (the rules' part of the contract).
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

from odin_cards.contract import ActionLike, GameRules, GameState

GROUP = "odin_cards.games"
"""The entry-point group in which installed packages publish their :class:`GamePlugin`."""

Ref = str
"""A reference to an attribute of a module: ``"package.module:attribute"``."""

Choose = Callable[[GameState, str, "float | None", random.Random], str]
"""A game's bots: (the game, level key, seconds to think or ``None``, dice) -> the text of
the move of the seat to move. It may look only at that seat's view."""

States = Callable[[GameState, Mapping[str, Any], Sequence[str], bool], Callable[[int | None], str]]
"""(game, set-up, names of the seats, playing) -> a maker of each seat's ``State`` as JSON
text (``None``: a spectator's). It must never put a card in a seat's state that the seat
has not seen; the platform splices the result into its messages without reading it."""

Limits = Callable[[Mapping[str, Any]], "str | None"]
"""What is wrong with a set-up the rules accept, for a public server (``None``: nothing)."""

Progress = Callable[[int, int], None]
"""Called with (actions done, actions in all) as a long piece of work goes."""


class Analyse(Protocol):
    """A finished game's analysis (``docs/analysis.md``: every move judged, a summary per
    seat), JSON-safe, from its record's dict; the same for the same record, iterations and
    seed on any machine. Raises ``ValueError`` for a record that does not replay."""

    def __call__(
        self,
        record: Mapping[str, Any],
        iterations: int,
        seed: int = 0,
        progress: Progress | None = None,
    ) -> dict[str, Any]: ...


class Traces(Protocol):
    """A game's conformance traces (``odin traces``): a file other implementations of the
    rules test against, one hand or game a JSON line (Odin's: ``docs/RULES.md``)."""

    def read(self, lines: Iterable[str]) -> Iterator[dict[str, Any]]:
        """The traces of a file's lines (``ValueError`` for a line that is not JSON)."""
        ...

    def check(self, number: int, trace: dict[str, Any]) -> object | None:
        """Where the engine and trace ``number`` disagree (printable), or ``None``;
        ``KeyError``/``TypeError`` for a trace that is not one."""
        ...

    def write(self, count: int, seed: int, players: Sequence[int]) -> Iterator[str]:
        """``count`` new traces from ``seed``, cycling through ``players``, as lines."""
        ...


# ------------------------------------------------------------------ the command line


@dataclass(frozen=True, slots=True)
class Flag:
    """One of the game's set-up options on the command line (``--target 10``, ``--goat``).

    The commands that start games (``odin play``, ``simulate``, ``arena``, ``evaluate``)
    offer the flags of every installed game, so their help lists them without importing a
    game; :attr:`GamePlugin.read_flags` turns the ones given into the game's set-up. A flag
    of another game than the one played is refused, naming its game."""

    name: str
    """The option as typed: ``--target``."""
    help: str
    kind: Literal["int", "text", "switch"] = "text"
    """``int`` and ``text`` take a value; a ``switch`` takes none (given: ``True``)."""
    metavar: str | None = None
    """The value's name in the help (``FILE``); ``None``: the kind's."""


class FlagError(ValueError):
    """A flag's value the game refuses: which flag (``--target``) and why, in one line."""

    def __init__(self, flag: str, message: str) -> None:
        super().__init__(message)
        self.flag = flag


ReadFlags = Callable[[int, Mapping[str, Any]], dict[str, Any]]
"""(players, the game's flags given on the command line by name: ``{"--target": 10}``) ->
the set-up they say, for :meth:`~odin_cards.contract.GameRules.check_setup`; raises
:class:`FlagError` naming the flag at fault (an unreadable file, a value out of range)."""


@dataclass(frozen=True, slots=True)
class TerminalBot:
    """A bot seat of ``odin play``: its level and the budget written after it
    (``search:seconds=1`` -> ``{"seconds": 1.0}``; empty: the level's own)."""

    level: str
    budget: Mapping[str, float] = field(default_factory=dict)


Ending = Literal["over", "left", "interrupted"]
"""How a terminal game ended: the game is over, the person left (``quit``, end of input),
or Ctrl-C."""


@dataclass(frozen=True, slots=True)
class TerminalTable:
    """What ``odin play`` hands a game's terminal: a game, new or resumed, with the person
    at seat 0 and a bot at every other seat, and the terminal to play it on.

    The command line has chosen and checked everything here (the set-up, the levels, the
    names); the terminal plays the game and says how it ended, and the command line writes
    the record. The bots' dice come from ``bot_seed``, never from the game's seed (which
    would tell whoever knows it every hidden card)."""

    key: str
    """The game's key."""
    game: GameState
    names: tuple[str, ...]
    bots: Mapping[int, TerminalBot]
    hint_level: str | None
    """The level that answers ``hint`` (``None``: the game's choice)."""
    bot_seed: str
    delay: float | None
    """Seconds to pause after a bot's move (``None``: the game's default)."""
    resumed: bool
    console: Any
    """The :class:`rich.console.Console` to print on."""
    read_line: Callable[[str], str]
    """Prints a prompt and returns the line typed; ``EOFError`` at the end of the input."""
    interactive: bool
    """A person at a terminal (pauses and spinners), not piped input."""
    echo: bool
    """Print each line read after its prompt (piped input shows what was "typed")."""


Play = Callable[[TerminalTable], tuple[Ending, GameState]]
"""A game's ``odin play``: plays the table to its end or until the person leaves; how it
ended, and the game as it stands then (the command line records it; with an ``undo`` it
may be another object than the one given)."""

Replay = Callable[[GameState, Mapping[str, Any], "Sequence[str] | None", bool], Iterable[Any]]
"""(a recorded game replayed, its record as a dict, the seats' names where the record keeps
them, whether to show the record's secrets too, ``--deals``) -> what ``odin replay`` prints,
one item a line (a string or a Rich renderable). The record's outcome is already checked
against its moves. Raises :class:`FlagError` (``--deals``) if the game has no secrets to show."""


class Screen(Protocol):
    """A game's part of ``odin join``, the terminal client of a server table.

    The platform connects, says ``hello``, reconnects and sends the actions (each once,
    whatever the connection does); the screen shows the table in the game's words and says
    what the lines typed mean. It sees only what the server sends the seat: the table's
    ``State`` (``docs/protocol.md``: its ``names``, ``seat``, ``legal`` (the seat's actions
    when it is to move) and the game's own fields) and the public events so far."""

    def show(
        self, event: Mapping[str, Any], state: Mapping[str, Any], events: Sequence[Any]
    ) -> None:
        """Print one new public event (``events``: all of them so far, this one included)."""
        ...

    def position(self, state: Mapping[str, Any], events: Sequence[Any]) -> None:
        """Print the position when the seat must decide (once per position)."""
        ...

    def prompt(self, state: Mapping[str, Any], events: Sequence[Any]) -> str:
        """The prompt when the seat must decide."""
        ...

    def read(self, line: str, state: Mapping[str, Any], events: Sequence[Any]) -> str | bool:
        """What a typed line means: the text of an action to send, ``True`` to leave the
        table, ``False`` when the screen has answered it itself (help, show, a refusal)."""
        ...

    def over(self, state: Mapping[str, Any]) -> bool:
        """Whether the game is over (the client then leaves)."""
        ...


Remote = Callable[[Any], Screen]
"""(the :class:`rich.console.Console` to print on) -> the game's :class:`Screen`."""


class Player(Protocol):
    """One seat of one measured game (the arena, the evaluation): made before the game,
    prepared outside any think time, asked at each of its seat's decisions."""

    def prepare(self) -> None:
        """Load what the player needs before its first decision (it may do nothing)."""
        ...

    def move(self, state: GameState, rng: random.Random) -> ActionLike | str:
        """The move of the seat to move, decided from that seat's view only."""
        ...


Players = Callable[[str, Mapping[str, float]], Player]
"""(level, budget: ``{"seconds": 0.2}``, ``{"iterations": 200}``, empty for the level's
own) -> a player of that level; ``KeyError`` for an unknown level, ``ValueError`` for a
budget its bots cannot take."""


@functools.cache
def resolve(ref: Ref) -> Any:
    """The attribute a reference names (its module imported the first time; the answer is
    kept: a reference is looked up on every broadcast)."""
    module, _, attribute = ref.partition(":")
    if not module or not attribute:
        raise ValueError(f"a reference is 'package.module:attribute', not {ref!r}")
    found: Any = importlib.import_module(module)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found


@dataclass(frozen=True, slots=True)
class BotLevel:
    """A bot level: its key (stored with seats), how pages name and describe it, and the
    time it thinks a move."""

    key: str
    name: str
    description: str
    seconds: float | None = None
    """Seconds a move may take at full strength; ``None``: it answers at once (such levels
    never wait behind a thinking one)."""
    extra: str | None = None
    """The package extra its bot needs (:mod:`odin_cards.extras`); ``None``: the core plays it."""

    @property
    def installed(self) -> bool:
        """Whether this install can make its bot (the extra it needs, if any, is installed)."""
        from odin_cards.extras import installed

        return self.extra is None or installed(self.extra)


@dataclass(frozen=True, slots=True)
class Preset:
    """One of the game's choices in Play now: its key (what a ticket stores), its English
    label (pages translate ``preset.<key>`` of the game's words) and the set-up it plays."""

    key: str
    name: str
    setup: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """What one game brings to the platform (see the module's docstring).

    Only ``key``, ``name`` and ``rules`` are required: a game with nothing else is played
    between people, shown to them as its rules' ``view`` in JSON, on the platform's plain
    board."""

    key: str
    """The game's key: stored with every table and record (``GameRules.key``)."""
    name: str
    """Its name in English (pages use ``name`` of the game's words)."""
    rules: Ref
    """-> the game's :class:`~odin_cards.contract.GameRules`."""
    summary: str = ""
    """One sentence saying what the game is (English)."""
    rank: int = 100
    """Where the game comes in lists (lower first; the first is the default game)."""
    bot_levels: tuple[BotLevel, ...] = ()
    """Its bots, weakest first."""
    bots: Ref | None = None
    """-> :data:`Choose`, imported only where bots think (the bot workers)."""
    warm: Ref | None = None
    """-> a function of no argument that a new bot worker calls once, before its first move
    (to start compiling or loading what the bots need; it must return at once)."""
    stand_in: str | None = None
    """The level that moves for a person whose clock ran out, or who left (default: the
    weakest level that thinks at once)."""
    hint_level: str | None = None
    """The level whose move is a hint (default: the strongest)."""
    presenter: Ref | None = None
    """-> :data:`States`; ``None``: each seat's ``view`` as JSON (the view must be a
    JSON-safe dict)."""
    limits: Ref | None = None
    """-> :data:`Limits`; ``None``: any set-up the rules accept."""
    play_now: tuple[Preset, ...] = ()
    """Its choices in Play now (none: Play now does not offer the game)."""
    rated: bool = False
    """Whether tables of the game may be rated."""
    ratings: Ref | None = None
    """-> a function of no argument answering its bot levels' fixed reference ratings,
    ``{level: (mu, sigma)}`` on the platform's rating scale (``docs/ratings.md``): the bots
    at a rated table take part with them. A level without one makes a table unrated."""
    web: str | None = None
    """The package holding its browser files: ``board.js`` (the board module of the table
    and replay pages), optional ``board.css``, and ``i18n/<language>.json`` (its words).
    ``None``: the platform's plain board."""
    players: Ref | None = None
    """-> :data:`Players`, for measured games whose bots take a budget besides ``seconds``
    (Odin's search: ``iterations``) or must load before a game; ``None``: the arena asks
    :attr:`bots` at every move, with ``seconds`` the only budget."""
    flags: tuple[Flag, ...] = ()
    """Its set-up options on the command line."""
    read_flags: Ref | None = None
    """-> :data:`ReadFlags`; ``None``: no flags, the rules' default set-up."""
    terminal: Ref | None = None
    """-> :data:`Play`, what ``odin play --game KEY`` runs; ``None``: the platform's plain
    terminal (the seat's view as JSON, the legal actions numbered)."""
    remote: Ref | None = None
    """-> :data:`Remote`, what ``odin join URL`` shows for a table of the game; ``None``:
    the platform's plain screen (the state as JSON, the legal actions numbered)."""
    replay: Ref | None = None
    """-> :data:`Replay`, how ``odin replay`` prints a record of the game; ``None``: each
    public event as JSON, one a line."""
    analysis: Ref | None = None
    """-> :class:`Analyse`, run in the analysis worker (the replay page) and by ``odin
    analyse``; ``None``: games are not analysed."""
    traces: Ref | None = None
    """-> :class:`Traces`, what ``odin traces`` checks and writes; ``None``: none."""
    environments: Mapping[str, Ref] = field(default_factory=dict)
    """Research environments by kind (``"pettingzoo"``, ``"gymnasium"``, ``"openspiel"``),
    and ``"bench"``: their speed figures for ``odin bench`` (an object with ``missing()``,
    ``first_call()``, ``measure(players, seconds, seed)`` and a ``caption``; see
    :mod:`odin_cards.odin.sim.bench`)."""

    # ------------------------------------------------------------ the parts, loaded

    def load_rules(self) -> GameRules:
        return cast(GameRules, resolve(self.rules))

    def load_bots(self) -> Choose:
        if self.bots is None:
            raise LookupError(f"the game {self.key!r} has no bots")
        return cast(Choose, resolve(self.bots))

    def load_warm(self) -> Callable[[], object] | None:
        return None if self.warm is None else cast(Callable[[], object], resolve(self.warm))

    def load_presenter(self) -> States | None:
        return None if self.presenter is None else cast(States, resolve(self.presenter))

    def load_limits(self) -> Limits | None:
        return None if self.limits is None else cast(Limits, resolve(self.limits))

    def load_ratings(self) -> Mapping[str, tuple[float, float]]:
        """Its bots' reference ratings (none if it names no ``ratings``)."""
        if self.ratings is None:
            return {}
        return cast(Callable[[], Mapping[str, tuple[float, float]]], resolve(self.ratings))()

    def load_analysis(self) -> Analyse | None:
        return None if self.analysis is None else cast(Analyse, resolve(self.analysis))

    def load_traces(self) -> Traces | None:
        return None if self.traces is None else cast(Traces, resolve(self.traces))

    def load_players(self) -> Players | None:
        return None if self.players is None else cast(Players, resolve(self.players))

    def load_read_flags(self) -> ReadFlags | None:
        return None if self.read_flags is None else cast(ReadFlags, resolve(self.read_flags))

    def load_terminal(self) -> Play | None:
        return None if self.terminal is None else cast(Play, resolve(self.terminal))

    def load_remote(self) -> Remote | None:
        return None if self.remote is None else cast(Remote, resolve(self.remote))

    def load_replay(self) -> Replay | None:
        return None if self.replay is None else cast(Replay, resolve(self.replay))

    # ------------------------------------------------------------ the facts

    @property
    def level_keys(self) -> tuple[str, ...]:
        """Its bot levels' keys, weakest first."""
        return tuple(level.key for level in self.bot_levels)

    def level(self, key: str) -> BotLevel | None:
        """The bot level ``key``, or ``None``."""
        return next((level for level in self.bot_levels if level.key == key), None)

    def stand_in_level(self) -> str | None:
        """The level of stand-ins (``None``: the game has no bots)."""
        if self.stand_in is not None:
            return self.stand_in
        quick = [level.key for level in self.bot_levels if level.seconds is None]
        return quick[0] if quick else (self.bot_levels[0].key if self.bot_levels else None)

    def hint(self) -> str | None:
        """The level that gives hints (``None``: the game has no bots)."""
        if self.hint_level is not None:
            return self.hint_level
        return self.bot_levels[-1].key if self.bot_levels else None

    def preset(self, key: str) -> Preset | None:
        return next((preset for preset in self.play_now if preset.key == key), None)


__all__ = [
    "GROUP",
    "Analyse",
    "BotLevel",
    "Choose",
    "Ending",
    "Flag",
    "FlagError",
    "GamePlugin",
    "Limits",
    "Play",
    "Player",
    "Players",
    "Preset",
    "Progress",
    "ReadFlags",
    "Ref",
    "Remote",
    "Replay",
    "Screen",
    "States",
    "TerminalBot",
    "TerminalTable",
    "Traces",
    "resolve",
]
