"""Deployment tests: the ops endpoints, and nginx in front of real server processes.

The processes and nginx are started by ``bench/cluster_processes.py``, which the load
benchmark uses too; its directory joins the import path here, before any test module of
this package imports it.
"""

import sys
from pathlib import Path

BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if BENCH not in sys.path:
    sys.path.append(BENCH)
