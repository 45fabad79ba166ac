"""Users' files, read and written safely: one clear error of the caller's type for a file that
cannot be read, and writes that never leave a half-written file in place of a whole one."""

from __future__ import annotations

import os
from pathlib import Path


def read_text(path: str | Path, error: type[Exception], what: str) -> str:
    """The file's UTF-8 text; `error` ("cannot read <what> <path>: <reason>") if it is missing,
    unreadable or not UTF-8."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise error(f"cannot read {what} {path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def write_atomically(path: str | Path, text: str) -> Path:
    """Write `text` to `path` through a temporary file beside it and a rename, so `path` holds
    either its old content or the new, whole; the temporary file is removed if the write fails."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target
