"""Are the quotes in the claims tables the papers' own words?

A ``paper`` claim carries ``quote``, the paper's sentence verbatim
(:mod:`evalkit.declare.claims`).  The papers' texts cannot be committed, so
the repository keeps a *fingerprint* of each: the set of hashes of every run
of :data:`WINDOW` consecutive words of the text, after :func:`words` has
normalised it (Unicode compatibility forms, so ligatures become letters;
lower case; hyphenation at line ends joined; markup and punctuation dropped).
A quote is found when every run of :data:`WINDOW` words in it is in the
fingerprint (:func:`missing`): a changed, added or dropped word breaks every
window that spans it, so a paraphrase is refused, while the paper's text
stays out of the repository.

The fingerprints live in ``data/published/quotes/<paper>.txt``, one hash a
line, and are made from a text conversion of the paper with
``python -m evalkit.declare.quotes PAPER FILE [FILE ...]`` (several files
for several conversions of one paper: their windows are pooled).

>>> words("Since the ED measure requires\\nall the mea-\\nsures to have the same range")
['since', 'the', 'ed', 'measure', 'requires', 'all', 'the', 'measures', 'to', 'have', 'the', 'same', 'range']
>>> fp = fingerprint(["we normalize both Kendall's tau and Spearman's rank correlation"])
>>> missing("normalize both Kendall's tau and Spearman's", fp)
[]
>>> missing("normalize both Kendall's tau or Spearman's", fp)
["normalize both kendall's tau or", "both kendall's tau or spearman's"]
"""

from __future__ import annotations

import hashlib
import re
import sys
import unicodedata
from pathlib import Path
from typing import Iterable

from .. import paths

__all__ = ["WINDOW", "FINGERPRINTS", "words", "fingerprint", "missing", "load", "write"]

#: Words per window; a quote must have at least this many.
WINDOW = 5
#: Where the fingerprints are kept.
FINGERPRINTS = paths.ROOT / "data" / "published" / "quotes"

_JOIN = re.compile(r"(\w)[-\u00ad\u2010]\s*\n\s*(\w)")
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
_ELISION = re.compile(r"\s(?:\.\.\.|\u2026)\s")


def words(text: str) -> list[str]:
    """The text's words, normalised (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
    text = _JOIN.sub(r"\1\2", text)
    return [w.lower() for w in _WORD.findall(text)]


def _digest(window: Iterable[str]) -> str:
    return hashlib.sha1(" ".join(window).encode()).hexdigest()[:12]


def _windows(ws: list[str]) -> list[list[str]]:
    return [ws[i:i + WINDOW] for i in range(len(ws) - WINDOW + 1)]


def fingerprint(texts: Iterable[str]) -> set[str]:
    """The hashes of every :data:`WINDOW`-word run in any of ``texts``."""
    return {_digest(w) for text in texts for w in _windows(words(text))}


def missing(quote: str, prints: set[str]) -> list[str]:
    """The windows of ``quote`` not in ``prints`` (empty when the quote is found).

    An elision, `` ... `` (or ``…``), splits the quote into parts each found on its own, so
    windows never span the words left out.  A quote or part shorter than :data:`WINDOW` words
    is refused as a whole.

    >>> prints = fingerprint(["one two three four five six seven eight nine ten eleven"])
    >>> missing("one two three four five ... seven eight nine ten eleven", prints)
    []
    >>> missing("one two three four five seven eight nine ten eleven", prints)
    ['two three four five seven', 'three four five seven eight', 'four five seven eight nine', 'five seven eight nine ten']
    """
    gaps = []
    for part in _ELISION.split(quote):
        ws = words(part)
        if len(ws) < WINDOW:
            gaps.append(" ".join(ws) or "(empty quote)")
            continue
        gaps += [" ".join(w) for w in _windows(ws) if _digest(w) not in prints]
    return gaps


def load(paper: str, folder: Path | None = None) -> set[str]:
    """The committed fingerprint of ``paper`` (a key such as ``kim2010``)."""
    path = Path(folder or FINGERPRINTS) / f"{paper}.txt"
    return set(path.read_text().split())


def write(paper: str, files: Iterable[Path], folder: Path | None = None) -> Path:
    """Write the fingerprint of ``paper`` from its text conversions ``files``."""
    prints = fingerprint(Path(f).read_text(encoding="utf-8") for f in files)
    path = Path(folder or FINGERPRINTS) / f"{paper}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{h}\n" for h in sorted(prints)))
    return path


if __name__ == "__main__":  # pragma: no cover
    if len(sys.argv) < 3:
        sys.exit("usage: python -m evalkit.declare.quotes PAPER FILE [FILE ...]")
    print(write(sys.argv[1], [Path(f) for f in sys.argv[2:]]))
