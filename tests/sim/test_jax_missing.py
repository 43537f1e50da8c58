"""Without JAX, the JAX environment says in one line how to install it."""

from __future__ import annotations

import subprocess
import sys

HIDE_JAX = "import sys; sys.modules['jax'] = None; "


def test_importing_without_jax_names_the_extra() -> None:
    done = subprocess.run(
        [sys.executable, "-c", HIDE_JAX + "import odin_cards.odin.jax"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        'ImportError: the JAX environment needs jax: pip install "odin-cards[jax]"'
    )
