"""Lazy re-exports for the concept packages.

``evalkit.stats.kendall_tau`` and friends stay importable from the package,
but the submodule (and its heavy imports: scipy, numba) is loaded only when a
name is first used.
"""

from __future__ import annotations

import importlib


def exports(package: str, table: dict[str, tuple[str, ...]]):
    """``(__getattr__, __dir__, __all__)`` for ``package`` re-exporting ``{submodule: names}``."""
    where = {name: sub for sub, names in table.items() for name in names}

    def __getattr__(name: str):
        sub = where.get(name)
        if sub is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{sub}"), name)

    def __dir__() -> list[str]:
        return sorted(set(where) | set(table))

    return __getattr__, __dir__, sorted(where)
