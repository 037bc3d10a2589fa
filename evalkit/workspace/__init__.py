"""The workspace around the science: it runs the notebooks and presents what they wrote.

It reads the notebooks' declarations (:mod:`evalkit.papers`, :mod:`evalkit.declare`);
nothing below it imports it.

* :mod:`~evalkit.workspace.runner`: runs the notebooks (``evalkit reproduce``).
* :mod:`~evalkit.workspace.worker`: executes one notebook with papermill, in a process of its own.
* :mod:`~evalkit.workspace.sweeps`: one notebook over a grid of parameters (Dask), and named sweeps.
* :mod:`~evalkit.workspace.report`: ``figures/index.html``.
* :mod:`~evalkit.workspace.findings`: the claims rendered, for the report and ``docs/findings.md``.
* :mod:`~evalkit.workspace.published`: transcribed published tables.
* :mod:`~evalkit.workspace.book`: the course book.
* :mod:`~evalkit.workspace.cli`: the ``evalkit`` command.
"""
