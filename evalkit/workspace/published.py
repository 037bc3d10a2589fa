"""Numbers transcribed from the papers (``data/published/``) and comparisons.

:func:`load` reads a transcribed table; :func:`side_by_side` joins it with the
reproduced one on key columns and adds differences, so that a notebook or the
report can show both and highlight where they part.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from ..errors import InputError
from .. import paths

__all__ = ["PUBLISHED_DIR", "load", "side_by_side"]

PUBLISHED_DIR = paths.PUBLISHED


def load(name: str, folder: Path | None = None) -> pd.DataFrame:
    """Read ``data/published/<name>.csv`` (keeps text columns as text)."""
    path = Path(folder or PUBLISHED_DIR) / f"{name}.csv"
    if not path.exists():
        raise InputError("no such published table", path=path)
    return pd.read_csv(path, dtype={"ratings": str})


def side_by_side(published: pd.DataFrame, reproduced: pd.DataFrame, keys: Sequence[str],
                 values: Sequence[str]) -> pd.DataFrame:
    """Outer join on ``keys``; for each value column ``v`` add ``v_published``,
    ``v_reproduced`` and ``v_diff`` (reproduced minus published)."""
    left = published[list(keys) + list(values)]
    right = reproduced[list(keys) + list(values)]
    merged = left.merge(right, on=list(keys), how="outer", suffixes=("_published", "_reproduced"))
    for v in values:
        merged[f"{v}_diff"] = merged[f"{v}_reproduced"] - merged[f"{v}_published"]
    order = list(keys) + [f"{v}_{s}" for v in values for s in ("published", "reproduced", "diff")]
    return merged[order]
