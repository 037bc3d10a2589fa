"""Runs, shared by every command: run files read and scored one at a time, runs frames."""

from ..._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "files": ("RunFiles",),
    "frames": ("normalise_runs", "team_of"),
})
