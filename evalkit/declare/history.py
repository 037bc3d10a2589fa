"""A claims table against its last committed version: no verdict, kind or rule changes unsaid.

A reader of a reproduction must tell a prediction from a postdiction: a row whose rule was
changed after its result was known says so in its ``revised`` column
(:func:`~evalkit.declare.claims.history_text`).  This module checks it, row by row, matched
by the stable ``id`` (positions shift when rows merge or are added):

* a row whose ``verdict``, ``kind``, ``threshold`` or ``source`` (:data:`WATCHED`) differs from
  the older table's must carry a longer history than it did there;
* a history is only ever extended: the older ``revised`` text is a prefix of the newer one;
* a row that disappears must be retired, with its reason, in its chapter's history module
  (``evalkit/papers/<chapter>/history.py``: ``TABLE``, ``REVISED``, ``RETIRED``).

:func:`unexplained` compares two tables; :func:`committed_baseline` finds the older table in
git (the last committed version that differs from the file as it stands, so a table just
committed is compared with the one before it); :func:`check_all` does both for every
``figures/*/claims*.csv`` (:mod:`evalkit.workspace.claims_history`, which finds each chapter's
history).  ``python -m evalkit.workspace.claims_history`` prints what it finds and
exits 1 when a change is unexplained (``tests/declare/test_claims_history.py`` runs it).

>>> import pandas as pd
>>> old = pd.DataFrame({"id": ["a"], "verdict": ["holds"], "kind": ["paper"], "threshold": [""],
...                     "source": [""], "revised": [""]})
>>> unexplained(old, old.assign(verdict="mixed"))
["a: verdict changed ('holds' -> 'mixed') but its history did not"]
>>> unexplained(old, old.assign(verdict="mixed", revised="[1] rule x -> y, because z"))
[]
"""

from __future__ import annotations

import io
import subprocess
from pathlib import Path
from typing import Mapping

import pandas as pd

from .. import paths

__all__ = ["WATCHED", "unexplained", "committed_baseline"]

#: The columns whose change a row's history must record: the verdict (testability included),
#: the kind, and the rule (the operational threshold and whose it is).
WATCHED = ("verdict", "kind", "threshold", "source")


def unexplained(old: pd.DataFrame, new: pd.DataFrame,
                retired: Mapping[str, str] | None = None) -> list[str]:
    """Every change from ``old`` to ``new`` that the rows' histories do not record.

    Both are claims tables (:data:`~evalkit.declare.claims.COLUMNS`); an ``old`` without ids
    (a table from before ids existed) gives no baseline and nothing is reported.
    ``retired`` maps the ids of rows removed on purpose to the reason.
    """
    if "id" not in old.columns:
        return []
    problems = []
    old = old.fillna("").astype(str)
    new = new.fillna("").astype(str)
    ids = new["id"]
    if (ids == "").any():
        problems.append(f"{int((ids == '').sum())} rows have no id")
    if ids[ids != ""].duplicated().any():
        problems.append(f"ids used twice: {sorted(set(ids[ids.duplicated() & (ids != '')]))}")
    before = old[old["id"] != ""].drop_duplicates("id").set_index("id")
    after = new[new["id"] != ""].drop_duplicates("id").set_index("id")
    for row_id in before.index:
        if row_id not in after.index:
            if row_id not in (retired or {}):
                problems.append(f"{row_id}: removed without being retired in its chapter's history")
            continue
        was, now = before.loc[row_id], after.loc[row_id]
        old_hist, new_hist = was.get("revised", ""), now.get("revised", "")
        if not new_hist.startswith(old_hist):
            problems.append(f"{row_id}: its history was rewritten, not extended")
            continue
        for col in WATCHED:
            if was.get(col, "") != now.get(col, "") and len(new_hist) <= len(old_hist):
                problems.append(f"{row_id}: {col} changed ({was.get(col, '')!r} -> "
                                f"{now.get(col, '')!r}) but its history did not")
    return problems


def committed_baseline(path: Path, root: Path = paths.ROOT) -> pd.DataFrame | None:
    """The last committed version of ``path`` that differs from the file as it stands.

    The file differs from ``HEAD``'s: ``HEAD``'s.  It equals ``HEAD``'s: the version before
    the last commit that changed it.  ``None`` outside git or when no older version exists.
    """
    rel = Path(path).resolve().relative_to(Path(root).resolve()).as_posix()

    def git(*args):
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
        return done.stdout if done.returncode == 0 else None

    current = Path(path).read_text(encoding="utf-8")
    commits = git("log", "--format=%H", "--", rel)
    for commit in (commits or "").split():
        text = git("show", f"{commit}:{rel}")
        if text is not None and text != current:
            return pd.read_csv(io.StringIO(text), keep_default_na=False, dtype=str)
    return None
