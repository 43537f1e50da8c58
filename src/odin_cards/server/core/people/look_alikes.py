"""Names that look alike are one name: Unicode's confusables skeleton (UTS #39).

A guest called "Аnn" (a Cyrillic А) beside the account "Ann", or "Expert b0t" beside the
bot "Expert", passes for someone else. :func:`look_alike_key` is the key two names share
when they look alike: white space collapsed, then UTS #39's *skeleton* (NFD, each
character replaced by its prototype from ``confusables.txt``, NFD again), casefolded.
"Ann", "ANN", "Аnn" and "Αnn" share one; so do "mary" and "rnary", "Bob1" and "Bobl".

The table is Unicode's (``confusables.txt`` beside this module, made by
``scripts/make-confusables.py``; its header gives the version, :data:`UNICODE_VERSION`),
read once when first needed. Accounts keep their key (``accounts.look_alike``, migration
0013); :mod:`.accounts` refuses a new account, a guest's seat, a Play now guest and a
spectator's chat name whose key is an account's or a reserved word's.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib import resources

TABLE = "confusables.txt"


@cache
def _table() -> tuple[str, dict[str, str]]:
    """The Unicode version and the prototype of every confusable character."""
    text = resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8")
    version = ""
    prototypes: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("#"):
            if line.startswith("# Version:"):
                version = line.split(":", 1)[1].strip()
            continue
        source, prototype = line.split("\t")
        prototypes[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in prototype.split())
    return version, prototypes


def unicode_version() -> str:
    """The version of Unicode's confusables data in use (``13.0.0``)."""
    return _table()[0]


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character's prototype, NFD again."""
    prototypes = _table()[1]
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def look_alike_key(name: str) -> str:
    """The key ``name`` shares with every name that looks like it (case aside)."""
    return skeleton(" ".join(name.split())).casefold()


def words(key: str) -> list[str]:
    """The words of a key: its runs of letters and digits (``"bot-for-ann"``: three);
    combining marks are left out, not taken for a break (``"b̓ot"`` is ``"bot"``)."""
    found: list[str] = []
    word: list[str] = []
    for char in key:
        if unicodedata.category(char) == "Mn":
            continue
        if char.isalnum():
            word.append(char)
        elif word:
            found.append("".join(word))
            word = []
    if word:
        found.append("".join(word))
    return found
