"""The C core under AddressSanitizer and UndefinedBehaviorSanitizer (issue 14).

An out-of-bounds read in a validator or a rule seldom crashes a normal build: it reads a
neighbour's bytes and carries on. This test builds a second copy of the package with the
CMake option ES_SANITIZE=ON (-fsanitize=address,undefined, every report fatal) into a
temporary directory and runs the fuzz, random-play, validator and is_legal tests of every
game against it in a subprocess. Any sanitizer report fails the run.

Skipped (with the reason) only outside CI when there is no C compiler with the sanitizer
runtimes; under CI (CI=true) a missing toolchain is a failure, so the job cannot pass
without having run.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the tests run against the sanitized build: fuzzing, random play, validator hardening, is_legal
SANITIZED_TESTS = [
    "tests/test_fuzz.py",
    "tests/test_random_move.py",
    "tests/test_validation_hardening.py",
    "tests/test_validation_closure.py",
    "tests/test_is_legal.py",   # is_legal hooks decode arbitrary ints: every field range-checked
]
#: smaller example counts than the plain suite: an instrumented build runs a few times slower
SANITIZED_ENV = {"ES_FUZZ_EXAMPLES": "120", "ES_HARDEN_EVERY": "5", "ES_CLOSURE_EVERY": "25"}
BUILD_TIMEOUT = 900
RUN_TIMEOUT = 1200
REPORT_MARKERS = ("runtime error", "AddressSanitizer", "UndefinedBehaviorSanitizer", "LeakSanitizer")


def _sanitizer_runtime() -> str | None:
    """Path of the compiler's libasan (to LD_PRELOAD into an uninstrumented Python), or None."""
    cc = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("gcc")
    if not cc:
        return None
    try:
        out = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True,
                             timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out if os.path.isabs(out) and os.path.exists(out) else None


def _toolchain_or_skip() -> str:
    runtime = _sanitizer_runtime()
    if runtime is None:
        message = "no gcc with libasan: the sanitizer run of the C core needs a C compiler"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI must run it: install gcc in .ci/run)")
        pytest.skip(message)
    return runtime


def _build(target: Path, build_dir: Path) -> None:
    """pip-install the package from the source tree into `target`, core sanitized."""
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
           "-Ccmake.define.ES_SANITIZE=ON", f"-Cbuild-dir={build_dir}", str(ROOT)]
    # Use this environment's build backend when it has one (no network needed); otherwise pip
    # fetches it into an isolated build environment, as for the normal install.
    if importlib.util.find_spec("scikit_build_core") and importlib.util.find_spec("Cython"):
        cmd.insert(4, "--no-build-isolation")
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    assert done.returncode == 0, f"sanitized build failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"


def _env(target: Path, runtime: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(SANITIZED_ENV)
    env.update({
        "PYTHONPATH": os.pathsep.join([str(target), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        "LD_PRELOAD": runtime,   # the interpreter is not instrumented: load the runtime first
        # Python frees little at exit by design; leaks are not what this run looks for
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:halt_on_error=1",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
    })
    env.pop("PYTEST_ADDOPTS", None)
    return env


def test_fuzz_and_random_play_are_clean_under_sanitizers(tmp_path):
    runtime = _toolchain_or_skip()
    target = tmp_path / "site"
    started = time.monotonic()
    _build(target, tmp_path / "build")
    built = time.monotonic()
    env = _env(target, runtime)

    which = subprocess.run([sys.executable, "-c", "import eurosearch; print(eurosearch.__file__)"],
                           env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert which.returncode == 0, which.stderr
    assert Path(which.stdout.strip()).is_relative_to(target), "the run would not test the sanitized copy"

    # --capture=sys: a sanitizer writes to file descriptor 2 and ends the process, so its
    # report must not sit in pytest's capture file.
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--capture=sys",
                          "-x", *SANITIZED_TESTS], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=RUN_TIMEOUT)
    output = run.stdout + run.stderr
    print(f"sanitizer run: build {built - started:.0f} s, tests {time.monotonic() - built:.0f} s")
    print(output[-2000:])
    reports = [m for m in REPORT_MARKERS if m in output]
    assert run.returncode == 0 and not reports, f"sanitizer run failed ({reports}):\n{output[-8000:]}"
