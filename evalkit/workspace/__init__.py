"""The workspace around the science: paths, outputs, notebook declarations, the
runner, the report, the data sets and the command line.

* :mod:`~evalkit.paths`: the repository's folders, named once.
* :mod:`~evalkit.outputs`: atomic writers for tables and figures.
* :mod:`~evalkit.declare.notebook`: the :class:`~evalkit.declare.notebook.Notebook` declaration.
* :mod:`~evalkit.declare.params`: parameter checks.
* :mod:`~evalkit.declare.claims`: the claims checklist of every notebook.
* :mod:`~evalkit.workspace.published`: transcribed published tables.
* :mod:`~evalkit.workspace.plots`: the figures.
* :mod:`~evalkit.workspace.runner`: runs the notebooks.
* :mod:`~evalkit.workspace.report`: ``figures/index.html``.
* :mod:`~evalkit.data`: the real public data sets.
* :mod:`~evalkit.workspace.cli`: the ``evalkit`` command.
"""
