"""What a notebook declares, below both the papers that declare and the runner that reads.

A paper module (:mod:`evalkit.papers`) declares its notebook with these; the
workspace's runner, report and tests read the declarations.  Nothing here
imports a paper or the workspace, so the layers only point down.

* :mod:`~evalkit.declare.notebook`: the :class:`~evalkit.declare.notebook.Notebook`
  declaration (parameters, inputs, outputs, comparisons, claims).
* :mod:`~evalkit.declare.params`: parameter checks.
* :mod:`~evalkit.declare.claims`: the claims checklist and its verdicts.
"""
