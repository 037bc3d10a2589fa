"""evalkit: evaluation with multiple, disagreeing assessors.

Helper package of the evalkit workspace.  It supplies the measures, statistics
and simulators that the notebooks under ``notebooks/`` use to reproduce

* Sakai (EVIA 2017), *Unanimity-Aware Gain for Highly Subjective Assessments*
  (:mod:`evalkit.gains`, :mod:`evalkit.measures`, :mod:`evalkit.stats`);
* Wang, Sherman, Lin & Efron (SIGIR 2015), assessor differences in tweet
  timeline generation;
* Kim, Zhai & Han (ECIR 2010), aggregation of multiple ideal orderings.

Importing the package has no side effects: submodules are imported on use.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
