"""``agreement.md``/``.tex`` and ``pairs.md``/``.tex``: the tables of ``evalkit agreement --format``
for a paper, laid out by :mod:`evalkit.evaluate.paper_tables` as ``compare``'s are.

The agreement table has one row per judge, most agreeing first: the items
compared, the ordering statistic with its interval and the other statistics
on the whole scale (the binary cuts stay in ``agreement.csv``); a double
dagger marks a judge below ``--min-overlap``.  The pairs table has the
difference, its interval, the p-value and Holm's, a dagger on the pairs
significant at ``--alpha``.
"""

from __future__ import annotations

from ..paper_tables import MINUS, interval, latex_table, markdown_table, number, tex

__all__ = ["TEXT_FORMATS", "agreement_text", "pairs_text", "SUFFIX"]

#: ``--format``: CSV alone, or the paper tables too.
TEXT_FORMATS = ("csv", "markdown", "latex")
#: The file suffix of each paper format.
SUFFIX = {"markdown": ".md", "latex": ".tex"}

_WHOLE = ["alpha_ordinal", "alpha_interval", "alpha_nominal", "cohen_kappa", "kappa_linear",
          "kappa_quadratic"]
_TESTS = {"permutation": "paired randomisation test over topics", "hsd": "randomised Tukey HSD "
          "over per-topic values"}


def _render(fmt: str, header, rows, align: str, note: str) -> str:
    if fmt == "markdown":
        return markdown_table(header, rows, align, note)
    spec = "".join("l" if a == "l" else ("c" if h.endswith("CI") else "r")
                   for a, h in zip(align, header))
    return latex_table([tex(h) for h in header], rows, spec, note)


def _name(text, fmt: str) -> str:
    return tex(text) if fmt == "latex" else str(text)


def agreement_text(report, fmt: str) -> str:
    """The agreement table of ``report`` in ``markdown`` or ``latex``."""
    minus, mark = MINUS[fmt], (" ‡" if fmt == "markdown" else r"$^\ddagger$")
    stat = report.statistic
    others = [s for s in _WHOLE if s != stat]
    wide = report.agreement.pivot(index="judge", columns="statistic", values="value")
    board = report.headline()
    low = report.agreement.drop_duplicates("judge").set_index("judge")
    level = int(round(100 * report.settings.get("level", 0.95)))
    header = ["Judge", "Items", stat, f"{level}% CI", *others]
    rows = []
    for r in board.itertuples(index=False):
        flagged = bool(low.loc[r.judge, "low_overlap"]) if "low_overlap" in low.columns else False
        rows.append([_name(r.judge, fmt) + (mark if flagged else ""), str(r.items), number(r.value, minus),
                     interval(r.ci_low, r.ci_high, minus)]
                    + [number(wide.loc[r.judge, s], minus) for s in others])
    against = board["reference"].iloc[0] if len(board) else "others"
    note = (f"Against {'the others pooled' if against == 'others' else against}; "
            f"{level}% percentile intervals over B = {report.settings.get('bootstrap')} topic "
            f"resamples; ordered by {stat}.")
    if rows and any(mark in r[0] for r in rows):
        note += (f" {mark.strip()} shares less than {report.settings.get('min_overlap', 0.5):.0%} "
                 "of its items with its reference.")
    return _render(fmt, header, rows, "lr" + "r" * (2 + len(others)), note)


def pairs_text(report, fmt: str) -> str:
    """The pairs table of ``report`` (``report.pairs``) in ``markdown`` or ``latex``."""
    minus, mark = MINUS[fmt], (" †" if fmt == "markdown" else r"$^\dagger$")
    pairs, s = report.pairs, report.settings
    alpha = s.get("alpha", 0.05)
    rows = [[_name(r.judge_a, fmt), _name(r.judge_b, fmt), number(r.difference, minus),
             interval(r.ci_low, r.ci_high, minus), number(r.p_value),
             number(r.p_holm) + (mark if r.p_holm < alpha else "")]
            for r in pairs.itertuples(index=False)]
    hsd = s.get("test") == "hsd"
    what = f"{_TESTS[s.get('test', 'permutation')]}, B = {s.get('trials')} trials, seed {s.get('seed')}"
    what += "; familywise error held by the test" if hsd else f"; Holm over {len(pairs)} pairs"
    ci = (f"simultaneous {1 - alpha:.0%} HSD interval" if hsd else
          f"{1 - alpha:.0%} paired topic-bootstrap interval (B = {s.get('bootstrap')})")
    note = (f"{mark.strip()} significant at alpha = {alpha:g} ({what}); Diff: {pairs.attrs.get('statistic', report.statistic)} "
            f"of A minus B{' (mean over topics)' if hsd else ''}; CI: {ci}.")
    header = ["A", "B", "Diff", "CI", "p", "p (Holm)"]
    return _render(fmt, header, rows, "llrrrr", note)
