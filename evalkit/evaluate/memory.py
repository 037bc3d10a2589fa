"""Give freed memory back to the operating system between the phases of a command.

Reading judges' labels and indexing them allocates and frees many large
arrays; glibc's allocator keeps much of what is freed in its heap (it raises
its mmap threshold after large frees), so a process's resident size can stay
tens of megabytes above what it holds while it goes on to read the runs.
:func:`release_free_memory` asks glibc to return its free pages
(``malloc_trim(0)``, glibc's malloc_trim(3): since glibc 2.8 it releases free
pages anywhere in the heap, not only at its top). Where libc is
not glibc (macOS, Windows, musl) it does nothing. It frees nothing still in
use, changes no value and costs a few milliseconds.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

__all__ = ["release_free_memory"]


@functools.lru_cache(maxsize=1)
def _trim():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):        # not glibc: nothing to call
        return None


def release_free_memory() -> bool:
    """Return glibc's free heap pages to the system; True if it released any."""
    trim = _trim()
    return bool(trim(0)) if trim is not None else False
