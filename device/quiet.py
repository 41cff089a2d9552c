"""Silencing what C libraries write straight to file descriptor 2 (SDL, FFmpeg), for probes
whose failure the caller reports in its own one line."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def stderr_silenced() -> Iterator[None]:
    """Within the block, anything written to fd 2 goes to /dev/null (Python's sys.stderr
    included); the real stderr is back afterwards, whatever happened."""
    quiet, saved = os.open(os.devnull, os.O_WRONLY), os.dup(2)
    os.dup2(quiet, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(quiet)
