"""Every chapter's claims tables against their last committed versions (``docs/claims.md``,
"History").

The rules are :func:`evalkit.declare.history.unexplained`'s; this module, in the layer above
the paper packages, finds each chapter's history module (``evalkit/papers/<chapter>/history.py``:
``TABLES``, ``REVISED``, ``RETIRED``) and checks every ``figures/*/claims*.csv``.
``python -m evalkit.workspace.claims_history`` prints what it finds and exits 1 when a change
is unexplained (``tests/declare/test_claims_history.py`` runs it).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

import pandas as pd

from .. import paths
from ..declare.history import committed_baseline, unexplained

__all__ = ["chapter_histories", "check_all", "main"]


def chapter_histories() -> dict[str, dict]:
    """``table -> {"revised": ..., "retired": ...}`` from every ``evalkit.papers.*.history``."""
    from .. import papers

    out: dict[str, dict] = {}
    for info in pkgutil.iter_modules(papers.__path__):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"{papers.__name__}.{info.name}.history")
        except ModuleNotFoundError:
            continue
        for table in getattr(module, "TABLES", ()):
            out[table] = {"revised": dict(module.REVISED), "retired": dict(module.RETIRED)}
    return out


def check_all(figures: Path = paths.FIGURES) -> dict[str, list[str]]:
    """``figures/<paper>/claims*.csv`` -> its unexplained changes (a table without baseline: [])."""
    histories = chapter_histories()
    out = {}
    for path in sorted(Path(figures).glob("*/claims*.csv")):
        name = f"{path.parent.name}/{path.name}"
        old = committed_baseline(path)
        new = pd.read_csv(path, keep_default_na=False, dtype=str)
        retired = histories.get(name, {}).get("retired", {})
        out[name] = [] if old is None else unexplained(old, new, retired)
    return out


def main() -> int:
    found = check_all()
    for name, problems in found.items():
        print(f"{name}: {'ok' if not problems else str(len(problems)) + ' unexplained'}")
        for p in problems:
            print(f"  {p}")
    return 1 if any(found.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
