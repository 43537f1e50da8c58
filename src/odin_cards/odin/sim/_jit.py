"""numba when it is installed (the ``research`` extra), plain Python otherwise.

:func:`jit` keeps the decorated function's type for mypy (numba itself is untyped).
Compiled code is cached on disk (``cache=True``: beside the module, or in numba's
per-user cache directory when the package directory is read-only), so only the first
process on a machine pays the compilation (see ``docs/simulator.md``).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def _numba() -> Any:
    """The numba module; ``None`` without it, or when ``ODIN_SIM_NO_NUMBA`` is set (tests)."""
    if os.environ.get("ODIN_SIM_NO_NUMBA"):
        return None
    try:
        return importlib.import_module("numba")
    except ImportError:
        return None


numba: Final = _numba()

HAVE_NUMBA: Final = numba is not None
"""Whether the compiled kernels are available (else the simulator runs the pure engine)."""


def jit(function: F) -> F:
    """Compile ``function`` with numba (no Python objects, cached, releases the GIL)."""
    if numba is None:
        return function
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def jit_inline(function: F) -> F:
    """:func:`jit`, inlined into its callers by numba itself.

    For the small functions of the hot loop: a call between compiled functions passes
    every array of the state and the tables (and counts references to them), which
    costs more than the work of a step.
    """
    if numba is None:
        return function
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(function))
