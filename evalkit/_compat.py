"""Old module names of evalkit 0.1, kept importable for one release.

Release 0.2 moved every module into a concept package or a paper module (see
the README's "Where things live").  ``import evalkit.io`` (and the other names
below) still works, with a ``DeprecationWarning`` naming the new home; each
attribute is looked up in the new modules.  These aliases will be removed in
0.3.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings

#: old module (under evalkit.) -> the modules that now hold its names
MOVED = {
    "gains": ("evalkit.measures.gains",),
    "timeline": ("evalkit.measures.timeline",),
    "ordering": ("evalkit.measures.aggregation", "evalkit.measures.discriminativeness"),
    "io": ("evalkit.formats.trec", "evalkit.formats.clusters", "evalkit.formats.orderings",
           "evalkit.formats.ratings", "evalkit.formats.preferences", "evalkit.workspace.outputs"),
    "unanimity": ("evalkit.papers.sakai2017_unanimity_gain",),
    "ttg": ("evalkit.papers.wang2015_assessor_differences",),
    "preferences": ("evalkit.simulate.preference_sampling", "evalkit.papers.wang2015_user_preferences"),
    "aggregation": ("evalkit.papers.kim2010_ordering_aggregation",),
    "realdata": ("evalkit.papers.real_data",),
    "reproduce": ("evalkit.workspace.reproduce",),
    "report": ("evalkit.workspace.report",),
    "params": ("evalkit.workspace.params",),
    "published": ("evalkit.workspace.published",),
    "data": ("evalkit.workspace.data",),
    "cli": ("evalkit.workspace.cli",),
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``evalkit.<old>`` and builds a module that forwards to the new ones."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, old = fullname.rpartition(".")
        if package == "evalkit" and old in MOVED:
            return importlib.machinery.ModuleSpec(fullname, self)
        return None

    def create_module(self, spec):
        return types.ModuleType(spec.name)

    def exec_module(self, module):
        old = module.__name__.rpartition(".")[2]
        targets = MOVED[old]
        warnings.warn(f"evalkit.{old} is deprecated since 0.2 and will be removed in 0.3; "
                      f"import from {' / '.join(targets)}", DeprecationWarning, stacklevel=2)
        homes = [importlib.import_module(t) for t in targets]

        def __getattr__(name):
            for home in homes:
                if hasattr(home, name):
                    return getattr(home, name)
            raise AttributeError(f"module {module.__name__!r} has no attribute {name!r} "
                                 f"(looked in {', '.join(targets)})")

        module.__getattr__ = __getattr__
        module.__all__ = sorted({n for h in homes for n in getattr(h, "__all__", ())})
        module.__doc__ = f"Deprecated alias of {', '.join(targets)}."


def install() -> None:
    """Register the alias finder once (called by ``evalkit/__init__.py``)."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
