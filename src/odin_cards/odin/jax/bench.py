"""Speed of the JAX environment: uniform random play in a ``jit(vmap)`` batch.

:func:`measure` compiles :func:`~odin_cards.odin.jax.env.random_play` for one batch
size and player count (the compilation timed apart), then runs it for a wall-clock
budget. It runs on whatever device JAX chose (``jax.default_backend()``: the CPU here, a
GPU or TPU where JAX sees one), so the same call measures an accelerator. Used by
``odin bench`` and by ``bench/jax_env.py``.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

import jax

from odin_cards.odin.jax import env
from odin_cards.odin.rules import Options

STEPS_PER_CALL = 32
"""Sweeps (one action in every game) in one compiled call: a ``lax.scan`` inside it."""


@dataclass(frozen=True)
class JaxResult:
    players: int
    games: int
    """Games in the batch."""
    backend: str
    """``cpu``, ``gpu`` or ``tpu``: where it ran."""
    compile_seconds: float
    """The first call: tracing and XLA compilation (with one call's work); near 0 when
    this process compiled the same settings and batch size before."""
    actions_per_second: float
    """Actions applied per second, every game of the batch counted: legal mask, a uniform
    choice from it, the step, and a new game where one ended."""
    actions_per_cpu_second: float
    """The same per second of this process's CPU time (all its threads): what a loaded,
    shared machine disturbs less than the wall clock."""


@functools.cache
def _compiled(players: int, options: Options | None) -> tuple[Any, Any]:
    """The jitted batch ``init`` and ``random_play`` for these settings, made once a
    process: JAX keeps the compiled code of a jitted function (per batch shape), so a
    second measurement with the same settings compiles nothing."""
    start = jax.jit(jax.vmap(lambda k: env.init(k, players, options)))
    play = jax.jit(
        lambda k, s: env.random_play(k, s, STEPS_PER_CALL, players, options), donate_argnums=1
    )
    return start, play


def measure(
    players: int,
    games: int = 1024,
    seconds: float = 2.0,
    seed: int = 1,
    options: Options | None = None,
) -> JaxResult:
    """Random play in ``games`` games of ``players`` for about ``seconds`` (after compiling)."""
    key = jax.random.PRNGKey(seed)
    start_key, key = jax.random.split(key)
    starts = jax.random.split(start_key, games)
    start, play = _compiled(players, options)
    states = start(starts)
    begin = time.perf_counter()
    key, sub = jax.random.split(key)
    states, applied = play(sub, states)
    applied.block_until_ready()
    compiled = time.perf_counter() - begin
    done = 0
    begin = time.perf_counter()
    cpu = time.process_time()
    deadline = begin + seconds
    while True:
        key, sub = jax.random.split(key)
        states, applied = play(sub, states)
        done += int(applied)  # waits for the call
        now = time.perf_counter()
        if now >= deadline:
            break
    cpu = time.process_time() - cpu
    return JaxResult(
        players, games, jax.default_backend(), compiled, done / (now - begin), done / cpu
    )


__all__ = ["STEPS_PER_CALL", "JaxResult", "measure"]
