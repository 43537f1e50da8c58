"""CITATION.cff and the BibTeX entry of docs/research.md name the package's version."""

from __future__ import annotations

import re
from pathlib import Path

from odin_cards import __version__

ROOT = Path(__file__).resolve().parents[1]


def test_the_citation_names_this_version() -> None:
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r"^cff-version: 1\.2\.0$", cff, re.M)
    assert re.search(rf'^version: "{re.escape(__version__)}"$', cff, re.M)
    assert re.search(r"^title: .+", cff, re.M) and re.search(r"^authors:\n  - name: .+", cff, re.M)
    research = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    bibtex = research[research.index("@software{") :]
    assert f"version = {{{__version__}}}" in bibtex[: bibtex.index("\n}")]
