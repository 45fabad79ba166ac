"""Where the installed C core lives, for users of the C ABI through any FFI."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def include_dir() -> Path:
    """The folder holding ``eurosearch.h``."""
    return _HERE / "include"


def library_path() -> Path:
    """The shared library of the C core (``libeurosearch_core.so`` or platform equivalent)."""
    names = {"darwin": "libeurosearch_core.dylib", "win32": "eurosearch_core.dll"}
    return _HERE / "lib" / names.get(sys.platform, "libeurosearch_core.so")
