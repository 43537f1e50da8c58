"""Suite-wide rules: in CI every service exists, so a service test may not skip there.

On a user's machine a test that needs PostgreSQL, Redis, nginx, Chromium or the
``[research]`` extra skips with a one-line reason. CI (``CI=true``, as ``.ci/run`` is called
there) has them all (``make test`` installs the extra, Chromium and nginx), so the same skip
is turned into a failure: a broken install must not pass as a green run.

Ctrl-C is given back to the suite when it was started with SIGINT ignored (a shell's
background job without job control, ``nohup cmd &`` in a script): the programs the tests
start would inherit the ignored signal, and the terminal tests that press Ctrl-C would wait
in vain.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Generator

import pytest

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

SERVICE_MARKS = ("postgres", "browser", "redis", "nginx", "multiprocess", "research", "jax")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if (
        os.environ.get("CI")
        and report.skipped
        and any(item.get_closest_marker(mark) for mark in SERVICE_MARKS)
    ):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where every service must be present: {report.longrepr}"
    return report
