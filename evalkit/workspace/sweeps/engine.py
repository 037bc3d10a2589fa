"""Parameter sweeps: one notebook over a grid of parameters, as Dask tasks.

``evalkit sweep NOTEBOOK --param NAME=V1,V2 [--param ...]`` runs the notebook
once for every combination of the values (the Cartesian product).  Each point
is one Dask task that executes the notebook in its own worker process
(exactly as :mod:`evalkit.workspace.runner` does) and writes into its own
folder ``OUT/points/<hash>/``, named by a short hash of the point's
parameters, with ``params.json`` and ``status.json`` beside the notebook's
outputs.  Afterwards:

* ``OUT/sweep.csv``: one row per point, the swept parameters, ``status``
  (``ok``/``failed``), ``seconds`` and ``folder``;
* ``OUT/combined/<table>.csv``: for every CSV table the notebook writes, the
  rows of all finished points, with the point's swept parameters as leading
  columns.

A rerun skips points whose ``status.json`` says ``ok`` for the same
parameters and retries the failed ones; one failed point never stops the
others.  Without ``--scheduler`` a local Dask cluster is started (processes,
one thread each, one worker per core, bound to 127.0.0.1); with
``--scheduler tcp://host:port`` the points go to an existing cluster, whose
workers must share the output folder's file system (see ``docs/sweeps.md`` for a
SLURM or Kubernetes recipe).

Dask (``dask.distributed``) schedules the tasks; see
https://distributed.dask.org/en/stable/.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ... import papers
from ...errors import InputError
from ... import paths

__all__ = ["Point", "parse_param", "grid", "sweep", "run_point", "combine", "resolve", "run_recipe"]


@dataclass(frozen=True)
class Point:
    """One combination of parameter values and where its outputs go."""

    swept: dict            # the swept parameters only (sweep.csv's leading columns)
    parameters: dict       # everything passed to the notebook (fixed + swept), without out_dir
    folder: Path

    @property
    def key(self) -> str:
        return self.folder.name


def resolve(name: str):
    """The notebook declaration for a notebook name or an unambiguous paper folder name.

    A paper folder name never picks an explorer (``explore_*``, the companion
    notebooks of :mod:`evalkit.explore`); name one exactly to sweep it.
    """
    registry = papers.notebooks()
    hits = [nb for nb in registry if nb.name == name] or [
        nb for nb in registry if nb.paper == name and not nb.name.startswith("explore_")]
    if len(hits) != 1:
        names = ", ".join(nb.name for nb in registry)
        why = "is ambiguous" if hits else "matches no notebook"
        raise InputError(f"notebook {name!r} {why}", hint=f"choose from {names}")
    return hits[0]


def _split(text: str) -> list[str]:
    """Split on commas outside brackets: ``1,[2,3],x`` -> ``['1', '[2,3]', 'x']``."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts]


def _value(token: str):
    """A value as JSON (numbers, lists, true/false) or, failing that, as a string."""
    try:
        return json.loads(token)
    except json.JSONDecodeError:
        return token


def parse_param(spec: str) -> tuple[str, list]:
    """``"p=0,0.1,[1,2]"`` -> ``("p", [0, 0.1, [1, 2]])``; raises InputError when malformed."""
    name, sep, values = spec.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier() or not values.strip():
        raise InputError(f"--param {spec!r}: expected NAME=V1,V2,...", hint="e.g. --param p=0,0.1,0.2")
    tokens = _split(values)
    if any(t == "" for t in tokens):
        raise InputError(f"--param {spec!r}: an empty value between commas")
    return name, [_value(t) for t in tokens]


def _key(parameters: dict) -> str:
    text = json.dumps(parameters, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def grid(nb, swept: list[tuple[str, list]], out: Path, fixed: dict | None = None) -> list[Point]:
    """Every combination of ``swept`` values (first parameter varies slowest), checked.

    Each point's parameters are checked with the notebook's own checks before
    anything runs (ParameterError naming the parameter), so a typo fails at
    once instead of in every task.
    """
    names = [n for n, _ in swept]
    if len(set(names)) != len(names):
        raise InputError(f"a parameter is swept twice: {names}", hint="give each --param once")
    points = []
    for values in itertools.product(*(v for _, v in swept)):
        chosen = dict(zip(names, values))
        parameters = {**(fixed or {}), **chosen}
        nb.check(**parameters)
        points.append(Point(chosen, parameters, Path(out) / "points" / _key(parameters)))
    return points


def _finished(point: Point) -> bool:
    status = point.folder / "status.json"
    if not status.is_file():
        return False
    record = json.loads(status.read_text())
    return record.get("status") == "ok" and record.get("parameters") == point.parameters


def run_point(name: str, parameters: dict, folder: str) -> dict:
    """Execute notebook ``name`` once into ``folder`` (a Dask task); return its status record.

    Runs in a Dask worker: the notebook itself runs in a worker process of its
    own with a one-thread kernel (:func:`evalkit.workspace.runner.run_jobs`),
    so a crashing kernel fails this point only.
    """
    from ..runner import Job, run_jobs

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "status.json").unlink(missing_ok=True)
    (folder / "params.json").write_text(json.dumps(parameters, indent=1, sort_keys=True) + "\n")
    job = Job(papers.notebook(name), {**parameters, "out_dir": str(folder)},
              folder / "executed" / f"{name}.ipynb")
    outcome = run_jobs([job], one_thread=True)[0]
    record = {"status": outcome.status, "seconds": round(outcome.seconds, 2),
              "parameters": parameters, "cell": outcome.cell, "error": outcome.error,
              "message": outcome.message}
    (folder / "status.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    return record


def _records(points: list[Point], out: Path) -> pd.DataFrame:
    rows = []
    for p in points:
        status = p.folder / "status.json"
        rec = json.loads(status.read_text()) if status.is_file() else {"status": "failed"}
        rows.append({**{k: _cell(v) for k, v in p.swept.items()}, "status": rec["status"],
                     "seconds": rec.get("seconds"),
                     "folder": str(p.folder.relative_to(out))})
    return pd.DataFrame(rows)


def _cell(value):
    """A parameter value as a table cell (lists as their JSON text)."""
    return json.dumps(value) if isinstance(value, (list, dict)) else value


def combine(points: list[Point], out: Path) -> list[Path]:
    """``out/combined/<table>.csv``: each CSV table of the finished points, stacked.

    The point's swept parameters come first (as ``sweep_<name>`` when the
    table has a column of that name already); a table in a sub-folder is
    named with ``__`` for ``/``.  Points that failed contribute nothing.
    """
    tables: dict[str, list[pd.DataFrame]] = {}
    for p in points:
        if not _finished(p):
            continue
        for csv in sorted(p.folder.rglob("*.csv")):
            rel = csv.relative_to(p.folder)
            if rel.parts[0] == "executed":
                continue
            frame = pd.read_csv(csv)
            for i, (k, v) in enumerate(p.swept.items()):
                frame.insert(i, f"sweep_{k}" if k in frame.columns else k, _cell(v))
            tables.setdefault("__".join(rel.parts), []).append(frame)
    target = Path(out) / "combined"
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frames in sorted(tables.items()):
        path = target / name
        pd.concat(frames, ignore_index=True).to_csv(path, index=False)
        written.append(path)
    return written


def _client(scheduler: str | None, workers: int | None = None):
    from dask.distributed import Client, LocalCluster

    if scheduler:
        return Client(scheduler), None
    cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                           processes=True,
                           host="127.0.0.1", dashboard_address=None)
    return Client(cluster), cluster


def sweep(notebook: str, params: list[tuple[str, list]], out: Path | None = None,
          quick: bool = False, scheduler: str | None = None, progress: bool = True,
          fixed: dict | None = None) -> pd.DataFrame:
    """Run ``notebook`` at every point of the grid ``params``; return the sweep table.

    ``fixed`` parameters apply to every point (after the quick ones with
    ``quick``); ``out`` defaults to ``build/sweeps/<notebook>``.
    """
    from dask.distributed import as_completed
    from tqdm.auto import tqdm

    nb = resolve(notebook)
    out = Path(out or paths.BUILD / "sweeps" / nb.name).resolve()
    points = grid(nb, params, out, {**(nb.quick if quick else {}), **(fixed or {})})
    todo = [p for p in points if not _finished(p)]
    if todo:
        from ..runner import ensure_raw_data

        ensure_raw_data(notebooks=[nb])   # default inputs, simulated once, before any task
    started = time.perf_counter()
    print(f"sweep {nb.name}: {len(points)} points, {len(points) - len(todo)} already done, "
          f"{len(todo)} to run -> {out}", file=sys.stderr, flush=True)
    if todo:
        client, cluster = _client(scheduler)
        try:
            futures = [client.submit(run_point, nb.name, p.parameters, str(p.folder),
                                     key=f"evalkit-sweep-{p.key}", pure=False) for p in todo]
            with tqdm(total=len(futures), unit="point", disable=not progress,
                      file=sys.stderr) as bar:
                for future in as_completed(futures):
                    record = future.result()
                    bar.set_postfix_str(record["status"])
                    bar.update()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    table = _records(points, out)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "sweep.csv", index=False)
    combine(points, out)
    failed = table[table["status"] != "ok"]
    print(f"sweep {nb.name}: {len(table) - len(failed)} of {len(table)} points ok in "
          f"{time.perf_counter() - started:.1f} s; {out / 'sweep.csv'}"
          + (f"; FAILED: {', '.join(failed['folder'])} (see status.json there)" if len(failed) else ""),
          file=sys.stderr, flush=True)
    return table


def run_recipe(name: str, out: Path | None = None, figures: Path | None = None,
               scheduler: str | None = None) -> list[Path]:
    """Run the named sweep of :mod:`evalkit.workspace.sweeps.recipes` and write its summary.

    Finished points are skipped, as with any sweep; the summary needs every
    point, so a failed one stops here with the sweep table's path.
    """
    from .recipes import RECIPES

    recipe = RECIPES[name]
    out = Path(out or paths.BUILD / "sweeps" / name)
    table = sweep(recipe.notebook, [(k, list(v)) for k, v in recipe.grid], out,
                  scheduler=scheduler, fixed=recipe.fixed)
    failed = int((table["status"] != "ok").sum())
    if failed:
        raise SystemExit(f"evalkit sweep {name}: {failed} points failed; rerun to retry them "
                         f"(see {Path(out) / 'sweep.csv'})")
    return recipe.summarise(out, Path(figures or paths.FIGURES / "sweeps"))
