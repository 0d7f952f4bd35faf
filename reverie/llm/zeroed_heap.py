"""In a process that sends an API key, new heap memory starts as zeros.

The key travels in each request, and a freed request stays in the heap. When Chroma creates
an HNSW segment it writes its whole preallocated buffer, the slots past the live elements
included (chroma-core/chroma#7688): whatever the heap held before, the key too. glibc's
``M_PERTURB`` option fills every allocation with zeros and every freed block with 0xFF, so no
old contents are left to be written. Small blocks a thread reuses from its own cache are not
filled, but the buffers Chroma saves are larger than that cache holds. Only a keyed process
pays for the filling (about 7 % more CPU time in the in-process bench).
"""

from __future__ import annotations

import ctypes
import sys

M_PERTURB = -6
# glibc fills an allocation with the complement of this byte (0x00) and a freed block with it.
ZERO_ON_ALLOCATE = 0xFF

_set = False


def zero_new_allocations() -> bool:
    """Turn the option on for this process (once); False where the C library has no such option."""
    global _set
    if _set:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library this process already uses
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    _set = bool(mallopt(M_PERTURB, ZERO_ON_ALLOCATE) == 1)
    return _set
