"""``odin join URL``: play (or watch) a table of a real ``odin serve`` from the terminal,
whatever its game (:mod:`odin_cards.cli.remote`)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from odin_cards.cli.app import CommandError, OdinCommand


def join_command(
    url: Annotated[
        str,
        typer.Argument(
            help="An invite link (http://host:8000/t/ID: takes a free seat), a seat link"
            " (…/t/ID#seat=TOKEN: your seat, on another device too) or a watch link"
            " (…/t/ID/watch).",
            show_default=False,
            metavar="URL",
        ),
    ],
    name: Annotated[
        str, typer.Option("--name", help="Your name at the table (with an invite link).")
    ] = "You",
) -> None:
    """Play or watch a server table of any game: the same screen and input as odin play.

    A dropped connection comes back by itself. Leaving (quit, end of input, Ctrl-C) keeps
    your seat: the seat link printed when you sat down brings you back.
    """
    import asyncio

    from odin_cards.extras import require

    require("join", "odin join")
    from rich.console import Console
    from rich.text import Text

    from odin_cards.cli.play import piped_reader, terminal_reader
    from odin_cards.cli.remote import JoinError, RemoteSession, parse_link, take_seat

    console = Console(highlight=False)
    try:
        link = parse_link(url)
        if link.token is None and not link.watch:
            if not name.strip():
                raise typer.BadParameter("your name cannot be empty", param_hint="--name")
            link = take_seat(link, name.strip())
            console.print(
                Text(f"You sit at table {link.table}. Your seat link (keep it to come back):")
            )
            console.print(Text(f"  {link.seat_url(link.token or '')}"), soft_wrap=True)
    except JoinError as error:
        raise CommandError(str(error)) from None
    read_line = terminal_reader() if sys.stdin.isatty() else piped_reader(console)
    session = RemoteSession(link, console, read_line, echo=not sys.stdin.isatty())
    try:
        ending = asyncio.run(session.run())
    except JoinError as error:
        raise CommandError(str(error)) from None
    except KeyboardInterrupt:
        console.print()
        console.print("Interrupted (Ctrl-C): leaving the table; your seat stays yours.")
        raise typer.Exit(130) from None
    if ending == "left" and link.token is not None:
        console.print(Text(f"Back to your seat: odin join '{link.seat_url(link.token)}'"))


def register(app: typer.Typer) -> None:
    app.command("join", cls=OdinCommand)(join_command)
