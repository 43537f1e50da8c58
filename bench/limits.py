"""Attacks on ``odin serve``, before and after its limits: memory and latency side by side.

For each attack, and for each of two versions of the server (``--before``, by default
the 0.1 release, and ``--after``, by default the committed HEAD), a fresh ``odin serve``
subprocess is started on loopback (its own SQLite file, ``--bot-delay 0``, default
workers, a 1,024-file limit) and attacked while a well-behaved client from another
address asks ``GET /api/levels`` every 50 ms. Printed per attack: the server's RSS
(``/proc/PID/status``, with its bot workers where they matter), the well-behaved
client's latency, and what the attack achieved.

Attacks (``--attacks``): ``slow`` readers of a finished 6-player game, ``body`` (huge
request bodies; ``body-chunked`` without a length), table ``spam``, ``bots`` (fairness
between bot tables; ``bots-spread`` from 20 addresses, run when a version refused some
tables), ``idle`` sockets under the file limit (``idle-spread``: from 50 addresses,
reopening what the server closes; ``idle-partial``: half a request). Everything is
bounded in time and count and stops by itself. Loopback only.

    .venv/bin/python bench/limits.py --quick
    .venv/bin/python bench/limits.py --json limits.json
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import io
import json
import os
import resource
import shutil
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attacks import body, bots, idle, slow_readers, spam
from attacks.common import Pinger, Sampler, Server, Version

ROOT = Path(__file__).resolve().parent.parent
RELEASE_0_1 = "78a7cce"
"""The commit released as 0.1 (before issue 7's limits)."""
ATTACKS = (  # in the order they run
    "slow",
    "body",
    "body-chunked",
    "spam",
    "bots",
    "bots-spread",
    "idle",
    "idle-spread",
    "idle-partial",
)
DEFAULT = ATTACKS


def version(label: str, where: str) -> Version:
    """A directory holding ``odin_cards``, or a git revision exported to a temporary one."""
    path = Path(where)
    if (path / "odin_cards").is_dir():
        return Version(f"{label} ({path})", path.resolve())
    if (path / "src" / "odin_cards").is_dir():
        return Version(f"{label} ({path})", (path / "src").resolve())
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", where],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "src/odin_cards"],
        check=True,
        capture_output=True,
    ).stdout
    target = Path(tempfile.mkdtemp(prefix=f"odin-{commit}-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    return Version(f"{label} ({commit})", target / "src", commit, target)


def configs(args: argparse.Namespace) -> dict[str, Any]:
    quick = args.quick
    return {
        "slow": slow_readers.Config(
            connections=args.slow_connections,
            rate=args.slow_rate,
            seconds=args.slow_seconds or (10.0 if quick else 30.0),
            target=args.slow_target or (30 if quick else 100),
        ),
        "body": body.Config(bodies=args.bodies, megabytes=args.body_mb or (20 if quick else 100)),
        "body-chunked": body.Config(
            bodies=args.bodies, megabytes=args.body_mb or (20 if quick else 100), chunked=True
        ),
        "spam": spam.Config(tables=args.spam_tables or (1000 if quick else 5000)),
        "bots": bots.Config(
            tables=args.bot_tables or (8 if quick else 20),
            seconds=args.bot_seconds or (20.0 if quick else 60.0),
            victim_level=args.victim_level,
        ),
        "bots-spread": bots.Config(
            tables=args.bot_tables or (8 if quick else 20),
            seconds=args.bot_seconds or (20.0 if quick else 60.0),
            victim_level=args.victim_level,
            spread=True,
        ),
        "idle": idle.Config(sockets=args.idle_sockets, hold=args.idle_hold or (8 if quick else 20)),
        "idle-spread": idle.Config(
            sockets=args.idle_sockets,
            hold=args.idle_hold or (8 if quick else 20),
            addresses=50,
            reopen=True,
        ),
        "idle-partial": idle.Config(
            sockets=args.idle_sockets, hold=args.idle_hold or (8 if quick else 20), partial=True
        ),
    }


PREPARE: dict[str, Callable[..., Any]] = {"slow": slow_readers.prepare}
RUNNERS: dict[str, Callable[..., Any]] = {
    "slow": slow_readers.run,
    "body": body.run,
    "body-chunked": body.run,
    "spam": spam.run,
    "bots": bots.run,
    "bots-spread": bots.run,
    "idle": idle.run,
    "idle-spread": idle.run,
    "idle-partial": idle.run,
}


async def attack(
    name: str, versions: list[Version], config: Any, nofile: int
) -> dict[str, dict[str, Any]]:
    """One attack on a fresh server of each version, one after the other: their figures.

    Both servers start (and prepare, e.g. play the game to watch) at once; the attacks
    themselves never overlap.
    """
    servers = [Server(target, nofile) for target in versions]
    try:
        return await _attack_each(name, servers, config)
    finally:  # interrupted (--timeout, Ctrl-C): no server outlives the benchmark
        for server in servers:
            server.stop()


async def _attack_each(name: str, servers: list[Server], config: Any) -> dict[str, dict[str, Any]]:
    prepared = await asyncio.gather(
        *(_prepare(name, server, config) for server in servers), return_exceptions=True
    )
    results: dict[str, dict[str, Any]] = {}
    for server, ready in zip(servers, prepared, strict=True):
        print(f"-- {name} on {server.version.label} ...", flush=True)
        load = os.getloadavg()[0]
        figures: dict[str, Any] = {}
        try:
            if isinstance(ready, BaseException):
                raise ready
            with Sampler(server.pid) as sampler, Pinger(server.base) as pinger:
                await asyncio.sleep(1)  # the pinger's first answers: the quiet latency
                figures = await RUNNERS[name](server, config, sampler, ready)
            figures["good_get"] = pinger.summary()
            if server.process.poll() is not None:
                figures["server_exited"] = server.process.returncode
        except Exception as error:
            figures = {"error": f"{type(error).__name__}: {error}"[:300], "log": server.tail()}
            figures["data"] = str(server.data)
        finally:
            server.stop(keep="error" in figures)
        figures["load_average"] = round(load, 2)
        results[server.version.label] = figures
    return results


async def _prepare(name: str, server: Server, config: Any) -> Any:
    await server.ready()
    return await PREPARE[name](server, config) if name in PREPARE else None


# --- the report ---------------------------------------------------------------------------


def _f(value: Any, digits: int = 0) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _latency(summary: dict[str, Any] | None, tail: str = "p99") -> str:
    if not summary or not summary.get("n"):
        return "none measured"
    text = f"{_f(summary['p50'], 1)} / {_f(summary[tail], 1)} / {_f(summary['max'], 1)} ms"
    if summary.get("failed"):
        text += f", {summary['failed']} failed of {summary['asked']}"
    return text


def _rss(f: dict[str, Any], end: str = "rss_end_mib") -> str:
    return f"{_f(f.get('rss_start_mib'))} -> {_f(f.get('rss_peak_mib'))} -> {_f(f.get(end))}"


def _good(result: dict[str, Any] | None) -> str:
    if not result:
        return "-"
    if result.get("ok"):
        return f"ok in {result['seconds']} s"
    step = result.get("step", "")
    return f"FAILED at {step} after {result.get('seconds')} s: {result.get('error', '')[:40]}"


def rows(name: str, f: dict[str, Any]) -> list[tuple[str, str]]:
    """The lines of one attack's table for one version."""
    if "error" in f:
        return [("error", f["error"][:90])]
    out: list[tuple[str, str]] = []
    if name == "slow":
        connections = f["connections"]
        out.append(("RSS MiB start -> peak -> attack end", _rss(f, "rss_attack_end_mib")))
        out.append(
            ("RSS MiB over time (s: MiB)", " ".join(f"{t:g}:{m:.0f}" for t, m in f["rss_timeline"]))
        )
        out.append(("one resync (bytes)", _f(f["resync_bytes"])))
        out.append(("hellos sent", _f(sum(c["sent"] for c in connections))))
        closes = [c for r in connections for c in r["closes"]]
        closed = f"{len(closes)}"
        if closes:
            first = ", ".join(str(r["closes"][0]) for r in connections if r["closes"])
            closed += f"; first at s: {first}"
            closed += f"; {', '.join(sorted({r.get('closed_by', '') for r in connections}))}"
        out.append(("connections closed by the server", closed))
        refused = sum(r.get("refused", 0) for r in connections)
        if refused:
            out.append(("connections refused", str(refused)))
        codes = " ".join(_f(c.get("close_code")) for c in connections)
        out.append(("close code left in the last socket", codes))
    elif name.startswith("body"):
        out.append(("RSS MiB start -> peak -> end", _rss(f)))
        out.append(("answers", f["statuses"]))
        out.append(("MB sent per body", " ".join(_f(b.get("sent_mb")) for b in f["bodies"])))
        out.append(("answered at s", " ".join(_f(b.get("answered_s"), 1) for b in f["bodies"])))
    elif name == "spam":
        out.append(
            ("created (201) / refused", f"{f['created']} / {f['refused']} {f['error_codes'] or ''}")
        )
        out.append(("seconds", _f(f["seconds"], 1)))
        out.append(("RSS MiB start -> peak -> end", _rss(f)))
        out.append(("open list length", _f(f["open_listed"])))
        other = f"{f['other_client_create']} {f.get('other_client_error') or ''}".strip()
        out.append(("another client creates a table", other))
    elif name.startswith("bots"):
        out.append(("bot tables accepted", f"{f['accepted']} {f['statuses']}"))
        out.append(("watchers connected", _f(f["watchers"])))
        move = _latency(f["bot_move"], "p95")
        waiting = f["person"].get("unfinished_wait_s")
        if waiting is not None:
            move += f" (still waiting {waiting} s at the end)"
        out.append(("other table's bot move p50/p95/max", move))
        out.append(("other table's bot moves measured", _f(f["bot_move"]["n"])))
        out.append(("attackers' bot moves a second", _f(f["attacker_moves_per_s"], 2)))
        out.append(
            (
                "RSS MiB server peak; with workers",
                f"{_f(f['rss_peak_mib'])}; {_f(f['rss_total_peak_mib'])}",
            )
        )
    elif name.startswith("idle"):
        failures = f["open_failures"]
        out.append(
            (
                "sockets opened / failed",
                f"{f['opened']} / {sum(failures.values())} {failures or ''}",
            )
        )
        files = f"{f['files_peak']} / {f['files_end']}"
        out.append(("server open files peak / end of hold", files))
        kept = _f(f["still_open_after_hold"])
        if f.get("reopened"):
            kept += f" (the attacker reopened {f['reopened']})"
        out.append((f"still open after {f['hold_s']:g} s", kept))
        out.append(("good client plays a hand, at once", _good(f["good_during"])))
        out.append(("... and after the hold", _good(f["good_after_hold"])))
    out.append(("good GET /api/levels p50/p99/max", _latency(f.get("good_get"))))
    out.append(("load average at start", _f(f.get("load_average"), 2)))
    return out


def table(name: str, results: dict[str, dict[str, Any]], labels: list[str]) -> str:
    columns = [dict(rows(name, results[label])) for label in labels]
    keys: list[str] = []
    for column in columns:
        keys += [k for k in column if k not in keys]
    width = max(len(k) for k in keys)
    cells = [[column.get(k, "") for column in columns] for k in keys]
    widths = [max(len(labels[i]), *(len(row[i]) for row in cells)) for i in range(len(labels))]
    lines = [
        f"== {name} ==",
        "  ".join(
            [" " * width, *(label.ljust(w) for label, w in zip(labels, widths, strict=True))]
        ),
    ]
    for key, row in zip(keys, cells, strict=True):
        lines.append(
            "  ".join([key.ljust(width), *(c.ljust(w) for c, w in zip(row, widths, strict=True))])
        )
    return "\n".join(line.rstrip() for line in lines)


async def main(args: argparse.Namespace) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attacker needs its files
    versions = [version("before", args.before), version("after", args.after)]
    labels = [v.label for v in versions]
    settings = configs(args)
    chosen = args.attacks.split(",") if args.attacks else list(DEFAULT)
    report: dict[str, Any] = {
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "quick": args.quick,
        "nofile": args.nofile,
        "cpus": os.cpu_count(),
        "versions": labels,
        "configs": {n: dataclasses.asdict(c) for n, c in settings.items() if n in chosen},
        "results": {},
    }
    print(f"before: {versions[0].src}\nafter:  {versions[1].src}", flush=True)
    try:
        for name in chosen:
            if name == "bots-spread" and args.attacks is None:
                earlier = report["results"].get("bots", {})
                wanted = settings["bots"].tables
                if all(earlier.get(lb, {}).get("accepted", wanted) >= wanted for lb in labels):
                    print("(bots-spread skipped: every bot table was accepted)", flush=True)
                    continue
            results = await attack(name, versions, settings[name], args.nofile)
            report["results"][name] = results
            print(table(name, results, labels), "\n", flush=True)
    finally:
        for target in versions:
            if target.exported is not None:
                shutil.rmtree(target.exported, ignore_errors=True)
    report["load_average_end"] = os.getloadavg()
    print(
        f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
        f"({os.cpu_count()} CPUs, shared)"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str))
        print(f"figures written to {args.json}")


def cli() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller numbers, shorter attacks")
    parser.add_argument("--attacks", help=f"comma-separated, of: {', '.join(ATTACKS)}")
    parser.add_argument("--before", default=RELEASE_0_1, help="git revision or source directory")
    parser.add_argument("--after", default="HEAD", help="git revision or source directory")
    parser.add_argument("--json", help="also write every figure to this file")
    parser.add_argument("--nofile", type=int, default=1024, help="the server's file limit")
    parser.add_argument("--timeout", type=float, default=3600, help="hard limit, seconds")
    group = parser.add_argument_group("sizes (defaults from issue 7; smaller with --quick)")
    group.add_argument("--slow-connections", type=int, default=4)
    group.add_argument("--slow-rate", type=float, default=19.0, help="hellos a second each")
    group.add_argument("--slow-seconds", type=float, help="30; quick 10")
    group.add_argument("--slow-target", type=int, help="the game's target: 100; quick 30")
    group.add_argument("--bodies", type=int, default=3)
    group.add_argument("--body-mb", type=int, help="MB per body: 100; quick 20")
    group.add_argument("--spam-tables", type=int, help="5000; quick 1000")
    group.add_argument("--bot-tables", type=int, help="six-seat expert tables: 20; quick 8")
    group.add_argument("--bot-seconds", type=float, help="60; quick 20")
    group.add_argument("--victim-level", default="heuristic", help="the other table's bot")
    group.add_argument("--idle-sockets", type=int, default=998)
    group.add_argument("--idle-hold", type=float, help="20; quick 8")
    args = parser.parse_args()
    if args.attacks:
        unknown = set(args.attacks.split(",")) - set(ATTACKS)
        if unknown:
            parser.error(f"unknown attacks {sorted(unknown)}; attacks: {', '.join(ATTACKS)}")
    return args


if __name__ == "__main__":
    arguments = cli()
    try:
        asyncio.run(asyncio.wait_for(main(arguments), arguments.timeout))
    except TimeoutError:
        raise SystemExit(f"stopped by --timeout {arguments.timeout} s") from None
