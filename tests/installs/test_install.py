"""The package as a person installs it: the wheel ``make dist`` builds, installed into fresh
virtual environments, the core alone and each extra, each tried for what it promises.

The wheel is built once a session (by ``python -m build``, from its sdist, as ``make dist``
does) and shared by the xdist workers; the environments install from pip's cache. The train
and jax extras are too big to install in the suite (PyTorch is a gigabyte of files to
unpack, JAX more than a minute): their environments get the wheel from pip and find the
running environment's own copies of exactly the extra's distributions (and what those
require) through links, so what they prove is that the extra's modules need nothing more
than the extra declares (pip's resolution of the pins is ``make setup``'s).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

from odin_cards.extras import EXTRAS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
INSTALL_SECONDS = 420
FRESH = {
    k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}
}
"""The environment of a command in a fresh virtual environment: none of this one's paths."""


def run(*args: str | Path, timeout: float = INSTALL_SECONDS, here: bool = False) -> str:
    """Run a command (in the fresh environments' environment unless ``here``); its output."""
    done = subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=None if here else FRESH,
    )
    assert done.returncode == 0, f"{args}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel built from it, once for all workers of the session."""
    base = tmp_path_factory.getbasetemp()
    # xdist's workers have folders of one session's folder; a lone session has its own
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "odin-dist"
    shared.mkdir(exist_ok=True)
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not list(shared.glob("*.whl")):
            run(sys.executable, "-m", "build", "--outdir", shared / "out", ROOT, here=True)
            for built in (shared / "out").iterdir():
                built.rename(shared / built.name)
    return shared


@pytest.fixture(scope="session")
def wheel(dist: Path) -> Path:
    (found,) = dist.glob("odin_cards-*.whl")
    return found


def new_venv(path: Path) -> Path:
    """A virtual environment without pip (this environment's pip installs into it)."""
    run(sys.executable, "-m", "venv", "--without-pip", path, here=True)
    return path / "bin" / "python"


def pip_install(python: Path, *requirements: str) -> None:
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "-q",
        "--no-compile",
        *requirements,
    )


def installed_venv(tmp_path: Path, wheel: Path, extra: str | None) -> Path:
    python = new_venv(tmp_path / "venv")
    pip_install(python, f"{wheel}[{extra}]" if extra else str(wheel))
    return python


def size_mib(venv: Path) -> float:
    return sum(f.stat().st_size for f in venv.rglob("*") if f.is_file()) / 2**20


# The core ------------------------------------------------------------------------------

RANDOM_GAME = """
import random
import odin_cards
from odin_cards.games import rules_of
for key in ("odin", "name-of-odin"):
    rules = rules_of(key)
    game = rules.new_game(3, {}, "seed")
    rng = random.Random(1)
    moves = 0
    while not game.is_over:
        game.apply(rng.choice(list(game.legal_actions())))
        moves += 1
    print(key, moves, game.outcome is not None)
"""


def test_sdist_holds_the_sources(dist: Path) -> None:
    (sdist,) = dist.glob("odin_cards-*.tar.gz")
    import tarfile

    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    assert any(name.endswith("src/odin_cards/odin/rules/game.py") for name in names)
    assert any(name.endswith("pyproject.toml") for name in names)


def test_core_install(tmp_path: Path, wheel: Path) -> None:
    python = installed_venv(tmp_path, wheel, None)
    listed = json.loads(
        run(sys.executable, "-m", "pip", "--python", python, "list", "--format=json", timeout=60)
    )
    names = {p["name"].lower() for p in listed}
    # typer and rich, and what they require (typer: pydantic; rich: markdown-it, pygments)
    assert not names & {"numpy", "fastapi", "sqlalchemy", "openskill", "websockets", "torch"}
    print(f"core venv: {size_mib(tmp_path / 'venv'):.0f} MiB, {sorted(names)}")

    games = [line.split() for line in run(python, "-c", RANDOM_GAME, timeout=120).splitlines()]
    assert [key for key, _, _ in games] == ["odin", "name-of-odin"]
    assert all(int(moves) > 0 and over == "True" for _, moves, over in games)

    odin = python.with_name("odin")
    played = subprocess.run(
        [odin, "play", "--seed", "3"],
        input="hint\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=FRESH,
    )
    assert played.returncode == 0, played.stderr
    assert "Heuristic 1" in played.stdout  # the strongest level the core plays
    assert "You leave the game." in played.stdout

    served = subprocess.run([odin, "serve"], capture_output=True, text=True, timeout=60, env=FRESH)
    assert served.returncode != 0
    assert served.stdout == ""
    assert served.stderr == (
        "odin serve needs the server extra: pip install 'odin-cards[server]'\n"
    )
    searched = subprocess.run(
        [odin, "play", "--bots", "search"], capture_output=True, text=True, timeout=60, env=FRESH
    )
    assert searched.returncode == 1
    assert searched.stderr == (
        "odin play --bots search needs the bots extra: pip install 'odin-cards[bots]'\n"
    )


# The server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, ConnectionError):
        return False


@pytest.fixture
def server_python(tmp_path: Path, wheel: Path) -> Path:
    return installed_venv(tmp_path, wheel, "server")


def test_server_install_serves(tmp_path: Path, server_python: Path) -> None:
    print(f"server venv: {size_mib(tmp_path / 'venv'):.0f} MiB")
    port = free_port()
    with subprocess.Popen(
        [
            server_python.with_name("odin"),
            "serve",
            "--port",
            str(port),
            "--data-dir",
            tmp_path / "data",
            "--workers",
            "1",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=FRESH,
    ) as server:
        try:
            deadline = time.monotonic() + 90
            while not ready(f"http://127.0.0.1:{port}/readyz"):
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "odin serve did not answer /readyz"
                time.sleep(0.2)
        finally:
            server.terminate()
            server.wait(timeout=30)
    assert (tmp_path / "data").is_dir()


# Linked environments: the running environment's copies ------------------------------


def requirement_names(dist: metadata.Distribution) -> Iterator[str]:
    """The distributions ``dist`` requires unconditionally (an extra's are left out)."""
    for line in dist.requires or []:
        requirement, _, marker = line.partition(";")
        if "extra" in marker:
            continue
        name = re.match(r"[A-Za-z0-9._-]+", requirement.strip())
        if name:
            yield name.group(0)


def closure(names: list[str]) -> list[metadata.Distribution]:
    """The distributions ``names`` and everything they require, as installed here."""
    found: dict[str, metadata.Distribution] = {}
    todo = list(names)
    while todo:
        key = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if key in found:
            continue
        try:
            dist = metadata.distribution(key)
        except metadata.PackageNotFoundError:
            continue  # a requirement for another platform or Python
        found[key] = dist
        todo.extend(requirement_names(dist))
    return list(found.values())


def wheel_requirements(wheel: Path, extras: str) -> list[str]:
    """The distributions the wheel requires for its core and ``extras`` (comma-separated)."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        lines = archive.read(name).decode().splitlines()
    wanted = []
    for line in lines:
        if line.startswith("Requires-Dist:"):
            requirement, _, marker = line.removeprefix("Requires-Dist:").partition(";")
            named = re.search(r"extra\s*==\s*['\"]([\w-]+)['\"]", marker)
            if not marker or (named and named.group(1) in extras.split(",")):
                wanted.append(re.split(r"[\s\[=<>!~]", requirement.strip())[0])
    return wanted


def linked_venv(tmp_path: Path, wheel: Path, extras: str) -> Path:
    """A fresh environment with the wheel and, through links, this environment's installed
    copies of the core's and ``extras``' distributions and what they require: no others."""
    links = tmp_path / "linked"
    links.mkdir()
    for dist in closure(wheel_requirements(wheel, extras)):
        for top in {Path(str(f)).parts[0] for f in dist.files or []}:
            source = Path(str(dist.locate_file(top)))
            if top not in {"..", "__pycache__"} and source.exists() and not (links / top).exists():
                (links / top).symlink_to(source)
    python = new_venv(tmp_path / "venv")
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", wheel)
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
    (Path(purelib.strip()) / "linked.pth").write_text(f"{links}\n")
    return python


# Research ------------------------------------------------------------------------------

API_TEST = """
import warnings
from pettingzoo.test import api_test
from odin_cards.odin.env import odin_v0
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    api_test(odin_v0.env(render_mode="ansi"), num_cycles=100)
import fastapi
"""


def test_research_install_passes_pettingzoo_api_test(tmp_path: Path, wheel: Path) -> None:
    python = installed_venv(tmp_path, wheel, "research")
    print(f"research venv: {size_mib(tmp_path / 'venv'):.0f} MiB")
    tried = subprocess.run(
        [python, "-c", API_TEST],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=FRESH,
    )
    assert "Passed API test" in tried.stdout, tried.stderr
    assert tried.stderr.rstrip().endswith("No module named 'fastapi'")  # no server


# Plot ----------------------------------------------------------------------------------


def test_plot_install_draws(tmp_path: Path, wheel: Path) -> None:
    python = installed_venv(tmp_path, wheel, "plot,arena")
    print(f"plot venv: {size_mib(tmp_path / 'venv'):.0f} MiB")
    png = tmp_path / "arena.png"
    run(
        python.with_name("odin"),
        "arena",
        "heuristic",
        "random",
        "--games",
        "2",
        "--workers",
        "1",
        "--plot",
        png,
        timeout=180,
    )
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_extras_match_pyproject() -> None:
    """Every extra :mod:`odin_cards.extras` names is pyproject's, with the same modules'
    distributions (where they are installed here)."""
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = declared["optional-dependencies"]
    assert set(EXTRAS) == set(extras) - {"dev"}
    providers = metadata.packages_distributions()
    for extra, modules in EXTRAS.items():
        names = {re.split(r"[\[=]", r)[0].lower().replace("_", "-") for r in extras[extra]}
        for module in modules:
            for dist in providers.get(module, []):
                assert dist.lower().replace("_", "-") in names, (extra, module)


TRAIN = """
import torch
from odin_cards.odin.learning.train import centred
print(float(centred(torch.tensor([[1.0, 3.0]]), torch.ones(1, 2)).abs().sum()))
import fastapi
"""


def test_train_extra_needs_only_torch(tmp_path: Path, wheel: Path) -> None:
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed here")
    python = linked_venv(tmp_path, wheel, "train")
    tried = subprocess.run(
        [python, "-c", TRAIN], capture_output=True, text=True, timeout=300, check=False, env=FRESH
    )
    assert tried.stdout.strip() == "2.0", tried.stderr
    assert tried.stderr.rstrip().endswith("No module named 'fastapi'")


JAX = """
import jax.numpy as jnp
print(int(jnp.arange(4).sum()))
"""


@pytest.mark.jax
def test_jax_extra_imports(tmp_path: Path, wheel: Path) -> None:
    pytest.importorskip("jax", reason="the jax extra is not installed here")
    python = linked_venv(tmp_path, wheel, "jax")
    assert run(python, "-c", JAX, timeout=300).strip() == "6"
