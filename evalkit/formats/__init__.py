"""Readers and writers, one module per file format.

* :mod:`~evalkit.formats.trec`: qrels, runs and TREC Microblog topics.
* :mod:`~evalkit.formats.judgment_groups`: trec_eval's judgment groups (``qrels_jg``).
* :mod:`~evalkit.formats.clusters`: TTG cluster files (NIST JSON).
* :mod:`~evalkit.formats.ratings`: per-assessor ratings (NTCIR-12 STC Japanese).
* :mod:`~evalkit.formats.orderings`: ordering judgments (CSV).
* :mod:`~evalkit.formats.preferences`: user preference judgment logs (CSV).
* :mod:`~evalkit.formats.scores`: per-topic scores (evalkit, trec_eval -q, ir_measures -q,
  PyTerrier, a wide table, pytrec_eval).

Readers return tidy pandas frames and raise :class:`evalkit.errors.InputError`
naming the file, the line and what is wrong.  Text is read as UTF-8 (a BOM is
dropped; CRLF accepted; blank lines skipped; a run file named ``-`` is
standard input); gzip, bz2 and xz files are
known by their first bytes and read decompressed (:mod:`._compressed`); a
header line where a TREC format has none is refused or skipped
(:mod:`._header`).  Writers are atomic (:mod:`evalkit.outputs`).
"""

from .._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "trec": ("read_qrels", "write_qrels", "read_run", "read_runs", "write_run", "read_topics"),
    "judgment_groups": ("read_judgment_groups",),
    "clusters": ("read_clusters", "write_clusters"),
    "ratings": ("read_ratings",),
    "orderings": ("read_orderings",),
    "preferences": ("PREFERENCE_COLUMNS", "read_preferences"),
    "scores": ("read_scores", "score_matrix"),
})
