"""evalkit: evaluation with multiple, disagreeing assessors.

The package of the evalkit workspace.  It supplies the measures, statistics
and simulators that the notebooks under ``notebooks/`` use to reproduce Sakai
(EVIA 2017), Wang, Sherman, Lin & Efron (SIGIR 2015) and Kim, Zhai & Han
(ECIR 2010).

* :mod:`evalkit.measures`: gains and evaluation measures.
* :mod:`evalkit.stats`: rank correlation, the randomised Tukey HSD, agreement.
* :mod:`evalkit.formats`: readers and writers, one module per file format.
* :mod:`evalkit.simulate`: simulated worlds, one module per world.
* :mod:`evalkit.papers`: one pipeline module per notebook, with its declaration.
* :mod:`evalkit.workspace`: paths, outputs, the runner, the report, the CLI.

Importing the package has no side effects; submodules are imported on use.
"""

__version__ = "0.2.0"

__all__ = ["__version__"]
