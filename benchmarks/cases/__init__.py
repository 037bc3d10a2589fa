"""One module per benchmark that ``benchmarks/bench.py`` runs by name, and their shared timing.

``common.py`` holds what several benchmarks share (the median of timed calls,
a whole process's wall time and peak memory, the printed table); each other
module is one benchmark, imported only when ``bench.py`` runs it, and its
docstring says what it times against which reference and the target.
"""
