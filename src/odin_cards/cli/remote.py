"""``odin join``'s client: a seat (or a spectator's chair) at a table of a real ``odin serve``.

Game-neutral: the client learns the table's game from the server (the table's ``game``
in ``welcome``) and shows it through that game's screen (its plugin's ``remote``, a
:class:`odin_cards.plugin.Screen`; the plain one of :mod:`odin_cards.cli.plain` for a
game without). Everything else is the platform's, the same for every game and the same
as the browser client (``static/js/connection.js``): ``hello`` with the seat token and the
last version seen; on a dropped connection, reconnection with growing, jittered pauses;
an action still unanswered when the connection dropped is sent again, with the same id,
after the reconnection's update (the server applies an id once). The seat is asked for a
move when the ``State`` lists legal actions for it (``docs/protocol.md``).

Input comes from a ``read_line(prompt)`` function, as in ``odin play``; it blocks, so it
runs on a daemon thread that reads one line each time the game asks for one.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote, unquote, urlsplit

from rich.console import Console
from rich.text import Text

from odin_cards.plugin import Screen

BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0)
"""Seconds between reconnection attempts (each jittered to between half and 1.5 times)."""
PING_EVERY = 25.0
RATE_PAUSE = 1.0
"""Seconds before an action refused as too fast is sent again (same id)."""
OPEN_TIMEOUT = 10.0

Ending = Literal["over", "left"]


class JoinError(Exception):
    """The table cannot be joined (a bad link, a full table, a server error): one line."""


@dataclass(frozen=True, slots=True)
class TableLink:
    """What a table link names: the server, the table, and a seat token or watching."""

    base: str
    """``http(s)://host[:port]``."""
    table: str
    token: str | None = None
    watch: bool = False

    @property
    def ws_url(self) -> str:
        scheme = "wss" if self.base.startswith("https:") else "ws"
        return f"{scheme}:{self.base.split(':', 1)[1]}/ws/{quote(self.table, safe='')}"

    def seat_url(self, token: str) -> str:
        return f"{self.base}/t/{quote(self.table, safe='')}#seat={quote(token, safe='')}"


def parse_link(url: str) -> TableLink:
    """Read an invite (``/t/ID``), seat (``/t/ID#seat=TOKEN``) or watch (``/t/ID/watch``) link."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise JoinError(f"not a table link: {url!r} (e.g. http://host:8000/t/abc123)")
    path = [unquote(p) for p in parts.path.split("/") if p]
    if len(path) not in (2, 3) or path[0] != "t" or (len(path) == 3 and path[2] != "watch"):
        raise JoinError(f"not a table link: {url!r} (an invite, seat or watch link: /t/ID...)")
    token = None
    if parts.fragment.startswith("seat="):
        token = unquote(parts.fragment[len("seat=") :]) or None
    return TableLink(f"{parts.scheme}://{parts.netloc}", path[1], token, len(path) == 3)


def screen_of(game: object, console: Console) -> tuple[str, Screen]:
    """The name and the screen of a table's game (:class:`JoinError` if not installed)."""
    from odin_cards.contract import SetupError
    from odin_cards.games import plugin_of

    try:
        plugin = plugin_of(game if isinstance(game, str) else "")
    except SetupError:
        shown = game[:40] if isinstance(game, str) else type(game).__name__
        raise JoinError(f"the table plays {shown!r}, a game this odin does not have") from None
    from odin_cards.cli.plain import screen as plain

    remote = plugin.load_remote() or plain
    return plugin.name, remote(console)


@dataclass
class Pending:
    """An action sent and not yet answered (``ack`` or ``error``)."""

    id: str
    action: str
    version: int
    resend: bool = False


class LineReader:
    """Reads one line on a daemon thread each time :meth:`ask` is called.

    A daemon thread: Ctrl-C or the end of the game never waits for a line nobody types.
    """

    def __init__(self, read_line: Callable[[str], str], loop: asyncio.AbstractEventLoop) -> None:
        self.read_line = read_line
        self.loop = loop
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.prompts: list[str] = []
        self.wanted = threading.Condition()
        self.asking = False
        threading.Thread(target=self._run, name="odin-join-input", daemon=True).start()

    def ask(self, prompt: str) -> None:
        with self.wanted:
            if self.asking:
                return
            self.asking = True
            self.prompts.append(prompt)
            self.wanted.notify()

    def _run(self) -> None:
        while True:
            with self.wanted:
                while not self.prompts:
                    self.wanted.wait()
                prompt = self.prompts.pop(0)
            line: str | None
            try:
                line = self.read_line(prompt)
            except EOFError:
                line = None
            with self.wanted:
                self.asking = False
            self.loop.call_soon_threadsafe(self.lines.put_nowait, line)
            if line is None:
                return


class RemoteSession:
    """A person at a server table: show what happens, ask for a move when it is theirs."""

    def __init__(
        self,
        link: TableLink,
        console: Console,
        read_line: Callable[[str], str],
        echo: bool = False,
        rng: random.Random | None = None,
    ) -> None:
        self.link = link
        self.console = console
        self.read_line = read_line
        self.echo = echo
        self.rng = rng or random.Random()
        self.screen: Screen | None = None
        self.seat: int | None = None
        self.version: int | None = None
        self.events: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.pending: Pending | None = None
        self.socket: Any = None
        self.welcomes = 0
        self.shown = -1
        """The version whose position was last shown for a decision."""
        self.ended: Ending | None = None
        self.reader: LineReader | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        """Actions sent later (the task set keeps them alive)."""

    # ------------------------------------------------------------- connection

    async def run(self) -> Ending:
        """Play (or watch) until the game is over or the person leaves."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus, WebSocketException

        self.reader = LineReader(self.read_line, asyncio.get_running_loop())
        lines = asyncio.create_task(self._read_lines())
        attempt = 0
        try:
            while self.ended is None:
                try:
                    async with connect(
                        self.link.ws_url, open_timeout=OPEN_TIMEOUT, ping_interval=PING_EVERY
                    ) as socket:
                        self.socket = socket
                        hello = {"type": "hello", "token": self.link.token, "version": self.version}
                        await socket.send(json.dumps(hello))
                        async for text in socket:
                            if await self._receive(json.loads(text)):
                                attempt = 0
                            if self.ended is not None:
                                break
                except InvalidStatus as error:
                    if error.response.status_code not in (429, 503):
                        raise JoinError(
                            f"the server refused the connection (HTTP {error.response.status_code})"
                        ) from None
                except (OSError, TimeoutError, WebSocketException):
                    pass
                finally:
                    self.socket = None
                    if self.pending is not None:
                        self.pending.resend = True
                if self.ended is None:
                    attempt += 1
                    base = BACKOFF[min(attempt - 1, len(BACKOFF) - 1)]
                    self.console.print(Text("connection lost: reconnecting…", style="dim"))
                    await asyncio.sleep(base / 2 + self.rng.random() * base)
        finally:
            lines.cancel()
        return self.ended

    async def _send(self, message: dict[str, Any]) -> bool:
        socket = self.socket
        if socket is None:
            return False
        try:
            await socket.send(json.dumps(message))
        except Exception:  # a dropped connection: the receive loop reconnects
            return False
        return True

    async def _receive(self, message: dict[str, Any]) -> bool:
        """Handle one server message; ``True`` once the connection is welcomed."""
        kind = message.get("type")
        if kind == "welcome":
            self.welcomes += 1
            self.seat = message.get("seat")
            if self.welcomes == 1:
                self._welcome(message)
            else:
                self.console.print(Text("reconnected", style="dim"))
            return True
        if kind == "update":
            self._update(message)
            if self.pending is not None and self.pending.resend:
                self.pending.resend = False
                await self._send_pending()
            self._maybe_prompt()
        elif kind == "ack":
            if self.pending is not None and self.pending.id == message.get("id"):
                self.pending = None
                # The update the action caused follows its ack; after a reconnection the
                # ack of a resent action may come after that update: then ask now.
                if (self.version or 0) >= message.get("version", 0):
                    self._maybe_prompt()
        elif kind == "error":
            self._error(message)
        return False

    # --------------------------------------------------------------- messages

    def _welcome(self, message: dict[str, Any]) -> None:
        table = message.get("table") or {}
        name, self.screen = screen_of(table.get("game"), self.console)
        who = "watching" if self.seat is None else f"seat {self.seat}"
        self.console.print(
            Text.assemble(
                (name, "bold"),
                f": table {table.get('id', self.link.table)} on {self.link.base}, {who}."
                " Type help for help.",
            )
        )

    def _update(self, message: dict[str, Any]) -> None:
        events = list(message.get("events") or [])
        shown = len(self.events)
        if message.get("resync"):
            self.events = events
        else:
            self.events += [e for e in events if e.get("index", shown) >= shown]
        self.state = message.get("state") or {}
        self.version = message.get("version")
        if self.screen is None:
            return
        for event in self.events[shown:]:
            self.screen.show(event, self.state, self.events)
        if self.screen.over(self.state) and self.ended is None:
            self.ended = "over"

    def _error(self, message: dict[str, Any]) -> None:
        code = message.get("code")
        text = str(message.get("message") or code)
        if code == "rate_limited" and self.pending is not None:
            # Typed (or piped) faster than the server takes: the same action, a second later.
            self._later(RATE_PAUSE)
            return
        mine = self.pending is not None and message.get("id") == self.pending.id
        if mine:
            self.pending = None
        if code in ("unauthorized", "not_found", "broken") and not mine:
            raise JoinError(text)
        self._refuse(text)
        if mine:
            self.shown = -1  # show the position again and ask anew
            self._maybe_prompt()

    # ------------------------------------------------------------------ input

    def _legal(self) -> list[str]:
        """The seat's legal actions: the ``State`` lists them only when it is to move."""
        legal = self.state.get("legal") if self.seat is not None else None
        return [str(text) for text in legal or []]

    def _maybe_prompt(self) -> None:
        if self.ended is not None or self.pending is not None or self.screen is None:
            return
        legal = self._legal()
        if not legal or self.reader is None:
            return
        if len(legal) == 1:
            self.console.print(Text(f"(only one move: {legal[0]})", style="dim"))
            self.pending = Pending(uuid.uuid4().hex, legal[0], self.version or 0)
            self._later(0)
            return
        if self.shown != self.version:
            self.shown = self.version if self.version is not None else -1
            self.screen.position(self.state, self.events)
        self.reader.ask(self.screen.prompt(self.state, self.events))

    async def _read_lines(self) -> None:
        assert self.reader is not None
        while True:
            line = await self.reader.lines.get()
            if line is None:
                self.console.print()
                self.console.print("Input ended: leaving the table.")
                self.ended = "left"
                await self._close()
                return
            if self.echo:
                self.console.print(Text(line))
            if await self._command(line):
                await self._close()
                return
            self._maybe_prompt()

    async def _close(self) -> None:
        if self.socket is not None:
            await self.socket.close()

    async def _command(self, line: str) -> bool:
        """Act on one typed line; ``True`` when the person leaves."""
        if self.screen is None:
            return False
        answer = self.screen.read(line, self.state, self.events)
        if answer is True:
            self.console.print("You leave the table.")
            self.ended = "left"
            return True
        if isinstance(answer, str):
            if not self._legal():
                self._refuse("it is not your turn")
                return False
            self.pending = Pending(uuid.uuid4().hex, answer, self.version or 0)
            if not await self._send_pending():
                self.pending.resend = True
        return False

    async def _send_pending(self) -> bool:
        pending = self.pending
        if pending is None:
            return True
        message = {
            "type": "act",
            "action": pending.action,
            "version": pending.version,
            "id": pending.id,
        }
        return await self._send(message)

    def _refuse(self, message: str) -> None:
        self.console.print(Text(f"✗ {message}", style="bold red"))

    def _later(self, seconds: float) -> None:
        """Send the pending action after ``seconds`` (0: as soon as the loop turns)."""
        task = asyncio.create_task(self._resend_later(seconds))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _resend_later(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if self.pending is not None and not await self._send_pending():
            self.pending.resend = True


def take_seat(link: TableLink, name: str) -> TableLink:
    """Sit at the first free seat of an invite link's table; the link with the seat's token."""
    table = http_json("GET", f"{link.base}/api/tables/{quote(link.table, safe='')}")["table"]
    free = [s["seat"] for s in table["seats"] if not s["taken"] and s.get("bot") is None]
    if not free:
        raise JoinError(
            f"every seat of table {link.table} is taken: watch it with {link.base}/t/"
            f"{link.table}/watch"
        )
    path = f"/api/tables/{quote(link.table, safe='')}/seats/{free[0]}"
    answer = http_json("POST", f"{link.base}{path}", {"name": name})
    return TableLink(link.base, link.table, str(answer["token"]))


def http_json(method: str, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """One request of the server's HTTP API; its error message (or the failure) as JoinError."""
    from urllib.error import HTTPError, URLError
    from urllib.request import Request, urlopen

    data = None if body is None else json.dumps(body).encode()
    request = Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urlopen(request, timeout=OPEN_TIMEOUT) as response:
            answer: dict[str, Any] = json.loads(response.read())
            return answer
    except HTTPError as error:
        try:
            message = json.loads(error.read())["message"]
        except (ValueError, KeyError, TypeError):
            message = f"HTTP {error.code}"
        raise JoinError(str(message)) from None
    except (URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise JoinError(f"cannot reach {url}: {reason}") from None
