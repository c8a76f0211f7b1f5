"""Where the reference corpora live, and what a test does when they are absent.

A test that needs them skips when they are absent on a laptop, and fails under ``CI``
(where they are always laid beside the checkout), so a green CI never hides a corpus
test that did not run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def shared_data() -> Path | None:
    """``shared/data`` beside the checkout (or ``$SMTPUZZLES_DATA``), if it exists."""
    env = os.environ.get("SMTPUZZLES_DATA")
    if env:
        return Path(env) if Path(env).is_dir() else None
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return None


def missing(what: str) -> None:
    """A corpus or one of its files is absent: fail under CI, else skip."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} not present (CI is set, so the corpora must be)")
    pytest.skip(f"{what} not present")


def corpus_file(path: Path) -> Path:
    """``path`` inside the corpora, which must exist (see :func:`missing`)."""
    if not path.is_file():
        missing(str(path))
    return path
