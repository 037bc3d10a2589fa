"""Interactive explorers (ipywidgets) for the companion notebooks ``notebooks/explore_*.ipynb``.

One module per explorer, each with a *pure* compute function (no widgets, no
drawing; the benchmarks time it and the tests check its numbers against the
paper modules) and the widget app built on it:

=================  ==========================================================
module             explorer
=================  ==========================================================
:mod:`.sakai`      p, Dmax, N and assessor agreement -> gains, tau, HSD
:mod:`.wang`       alternate assessor's disagreement -> ARI, tau, rank swaps
:mod:`.kim`        noise ratio and FreSPA's parameters -> ED of seven methods
:mod:`.exercises`  the notebooks' exercises and their ``check_*`` functions
=================  ==========================================================

Every app degrades to a static figure when its notebook runs without a
widget front-end (papermill, ``make reproduce``, the course book): the
notebooks' ``interactive`` parameter is set to ``False`` by the runner
(:attr:`evalkit.declare.notebook.Notebook.batch`).
"""
