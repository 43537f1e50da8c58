"""Suite-wide rules: in CI every service exists, so a service test may not skip there.

On a user's machine a test that needs PostgreSQL, Redis, nginx, Chromium or the
``[research]`` extra skips with a one-line reason. CI (``CI=true``, as ``.ci/run`` is called
there) has them all (``make test`` installs the extra, Chromium and nginx), so the same skip
is turned into a failure: a broken install must not pass as a green run.
"""

from __future__ import annotations

import os
from collections.abc import Generator

import pytest

SERVICE_MARKS = ("postgres", "browser", "redis", "nginx", "multiprocess", "research")


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
