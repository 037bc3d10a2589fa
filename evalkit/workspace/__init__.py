"""The workspace around the science: paths, outputs, notebook declarations, the
runner, the report, the data sets and the command line.

* :mod:`~evalkit.workspace.paths`: the repository's folders, named once.
* :mod:`~evalkit.workspace.outputs`: atomic writers for tables and figures.
* :mod:`~evalkit.workspace.notebook`: the :class:`~evalkit.workspace.notebook.Notebook` declaration.
* :mod:`~evalkit.workspace.params`: parameter checks.
* :mod:`~evalkit.workspace.claims`: the claims checklist of every notebook.
* :mod:`~evalkit.workspace.published`: transcribed published tables.
* :mod:`~evalkit.workspace.reproduce`: runs the notebooks.
* :mod:`~evalkit.workspace.report`: ``figures/index.html``.
* :mod:`~evalkit.workspace.data`: the real public data sets.
* :mod:`~evalkit.workspace.cli`: the ``evalkit`` command.
"""
