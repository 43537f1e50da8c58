"""Make the look-alike table the server ships from Unicode's confusables.txt (UTS #39).

    python scripts/make-confusables.py path/to/confusables.txt

writes ``src/odin_cards/server/core/people/confusables.txt``: Unicode's header (its date,
version, copyright and terms of use) and each mapping as ``SOURCE<TAB>PROTOTYPE`` code
points in hex, without the comments. Unicode's file is at
https://www.unicode.org/Public/security/<version>/confusables.txt; the shipped table says
which version it came from (the server reads the version there).
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src/odin_cards/server/core/people/confusables.txt"


def main(source: Path) -> None:
    header: list[str] = []
    rows: list[str] = []
    for line in source.read_text(encoding="utf-8-sig").splitlines():
        if not rows and line.startswith("#"):
            header.append(line)
            continue
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [field.strip() for field in data.split(";")]
        if len(fields) < 3 or fields[2] != "MA":
            raise SystemExit(f"not a confusables.txt mapping: {line!r}")
        rows.append(f"{fields[0]}\t{fields[1]}")
    if not any(line.startswith("# Version:") for line in header):
        raise SystemExit("no '# Version:' line in the header")
    note = [
        "#",
        "# Derived by scripts/make-confusables.py: each line maps a SOURCE code point to its",
        "# PROTOTYPE (hex code points), as in Unicode's file; its comments are left out.",
    ]
    OUT.write_text("\n".join([*header, *note, *rows]) + "\n", encoding="utf-8")
    print(f"{len(rows)} mappings written to {OUT}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
