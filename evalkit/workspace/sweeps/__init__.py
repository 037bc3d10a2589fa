"""Parameter sweeps: a notebook over a grid of parameters, and the named sweeps worth having.

* :mod:`~evalkit.workspace.sweeps.engine`: the Dask engine, ``evalkit sweep NOTEBOOK
  --param NAME=V1,V2``, one task per point of the grid.
* :mod:`~evalkit.workspace.sweeps.ppi_coverage`: the coverage study of ``evalkit estimate``'s
  intervals, one Dask task per simulated world (``make sweep-ppi-coverage``).
* :mod:`~evalkit.workspace.sweeps.recipes`: the named sweep definitions
  (``evalkit sweep sakai-p``, Sakai EVIA 2017 beyond p = 0.2) and their summaries.
"""
