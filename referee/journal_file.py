"""The journal's bytes on disk: what can be told before SQLite opens it, and setting it aside.

SQLite reports some damage itself (``PRAGMA integrity_check``), but not all of it: a file cut
inside its last page still reads, and a write-ahead log (the ``-wal`` file beside the journal)
whose header or one frame is damaged is silently ignored from that point on, committed entries
with it. Worse, the first connection that writes resets such a log, so the evidence must be read
before SQLite touches the file. Everything here only reads, except :func:`set_aside`, which
renames (never deletes) the journal and its ``-wal`` and ``-shm`` files so a person can look at
them later while the table goes on with a fresh journal.

The file formats are SQLite's own, documented at https://www.sqlite.org/fileformat.html.
"""

from __future__ import annotations

import os
import struct
import time
from dataclasses import dataclass
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_BYTES = 100
WAL_MAGIC_LITTLE = 0x377F0682
"""Frame checksums read as little-endian 32-bit words."""
WAL_MAGIC_BIG = 0x377F0683
WAL_VERSION = 3007000
WAL_HEADER_BYTES = 32
FRAME_HEADER_BYTES = 24
SIDE_FILES = ("-wal", "-shm")
"""The files SQLite keeps beside a journal in WAL mode; they travel with it when set aside."""


class Unusable(Exception):
    """The path cannot hold a journal at all (a folder, a missing folder, no permission, another
    kind of file): a person must fix the path; nothing is moved."""


@dataclass(frozen=True)
class Health:
    """What the bytes say before SQLite opens the file."""

    exists: bool
    empty: bool = False
    damage: str | None = None
    """Why the file cannot be trusted, in a sentence; None when nothing is wrong."""


def inspect(path: Path) -> Health:
    """Read the journal's header and its write-ahead log; raises Unusable for a path that is not
    a journal file at all. Never writes."""
    if path.is_dir():
        raise Unusable(f"{path} is a folder, not a journal file")
    if not path.parent.is_dir():
        raise Unusable(f"{path}: the folder {path.parent} does not exist")
    if not path.exists():
        return Health(exists=False)
    try:
        with path.open("rb") as f:
            header = f.read(HEADER_BYTES)
        size = path.stat().st_size
    except PermissionError:
        raise Unusable(f"{path}: no permission to read it") from None
    except OSError as exc:
        raise Unusable(f"{path}: cannot read it ({exc.strerror})") from None
    wal = _wal_damage(Path(f"{path}-wal"), _page_size(header) if size else None)
    if size == 0:
        return Health(exists=True, empty=True, damage=wal)
    if not header.startswith(SQLITE_MAGIC):
        raise Unusable(f"{path} is not a journal (not an SQLite database); check the journal path")
    return Health(exists=True, damage=_size_damage(header, size) or wal)


def _page_size(header: bytes) -> int | None:
    if len(header) < HEADER_BYTES:
        return None
    raw = struct.unpack(">H", header[16:18])[0]
    size = 65536 if raw == 1 else raw
    return size if _is_page_size(size) else None


def _is_page_size(size: int) -> bool:
    """SQLite's pages are a power of two from 512 to 65536 bytes."""
    return 512 <= size <= 65536 and size & (size - 1) == 0


def _size_damage(header: bytes, size: int) -> str | None:
    """A database file is a whole number of pages, at least as many as its header counts."""
    page = _page_size(header)
    if page is None:
        return "its header is damaged (no valid page size)"
    if size % page:
        return f"the file is cut short: {size} bytes is not a whole number of {page}-byte pages"
    change_counter, pages = struct.unpack(">II", header[24:32])
    valid_for = struct.unpack(">I", header[92:96])[0]
    if valid_for == change_counter and pages * page > size:  # the header's page count is current
        return (f"the file is cut short: its header counts {pages} pages, "
                f"the file holds {size // page}")
    return None


def _wal_damage(wal: Path, db_page_size: int | None) -> str | None:
    """Committed transactions in the write-ahead log that SQLite would skip, in a sentence.

    SQLite replays the log's frames in order while each frame's salts match the log header's and
    its running checksum is right, and keeps what the last commit frame among them covers. A
    frame that fails ends the replay; committed frames after it are skipped without a word. A
    torn last transaction (a power cut during the write) is normal and was never reported as
    written, so only a *commit frame that checks out after a failed one* counts as a loss, and a
    damaged log header counts when the log holds frames.
    """
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"its write-ahead log {wal.name} cannot be read ({exc.strerror})"
    if len(data) <= WAL_HEADER_BYTES:
        return None  # no frames: nothing was committed into it
    magic, version, page_size = struct.unpack(">III", data[:12])
    bad_header = (f"its write-ahead log {wal.name} has a damaged header: "
                  "every entry in it is unreadable")
    if magic not in (WAL_MAGIC_LITTLE, WAL_MAGIC_BIG) or version != WAL_VERSION:
        return bad_header
    if not _is_page_size(page_size):
        return bad_header
    order = "<" if magic == WAL_MAGIC_LITTLE else ">"
    stored = struct.unpack(">II", data[24:32])
    if _checksum(order, data[:24], (0, 0)) != stored:
        return bad_header
    if db_page_size is not None and page_size != db_page_size:
        return (f"its write-ahead log {wal.name} has {page_size}-byte pages, the journal "
                f"{db_page_size}-byte pages: every entry in it is unreadable")
    salts = data[16:24]
    frame_bytes = FRAME_HEADER_BYTES + page_size
    previous = stored
    failed_at = None
    for n, start in enumerate(range(WAL_HEADER_BYTES, len(data) - frame_bytes + 1, frame_bytes), 1):
        frame = data[start:start + frame_bytes]
        if frame[8:16] != salts:
            break  # a frame left over from before the log last restarted: the log ends here
        commit = struct.unpack(">I", frame[4:8])[0] != 0
        own = struct.unpack(">II", frame[16:24])
        good = _checksum(order, frame[:8] + frame[FRAME_HEADER_BYTES:], previous) == own
        if not good and failed_at is None:
            failed_at = n
        elif good and commit and failed_at is not None:
            return (f"its write-ahead log {wal.name} is damaged at frame {failed_at}: "
                    f"committed entries after it are unreadable")
        previous = own
    return None


def _checksum(order: str, data: bytes, seed: tuple[int, int]) -> tuple[int, int]:
    """SQLite's WAL checksum: two running 32-bit sums over pairs of words."""
    s0, s1 = seed
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def set_aside(path: Path, now: float | None = None) -> Path:
    """Rename the journal and its side files to ``NAME.damaged-YYYYmmdd-HHMMSS.EXT`` (the side
    files keep their ``-wal``/``-shm`` endings, so SQLite tools open the set-aside copy whole);
    returns the new name. Nothing is deleted or overwritten."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    for n in range(1, 1000):
        tag = f".damaged-{stamp}" + (f"-{n}" if n > 1 else "")
        target = path.with_name(f"{path.stem}{tag}{path.suffix}")
        if not any(Path(f"{target}{s}").exists() for s in ("", *SIDE_FILES)):
            break
    else:
        raise Unusable(f"{path}: too many set-aside copies named {path.stem}.damaged-{stamp}*")
    for side in SIDE_FILES:  # the log first: a journal without its log would read as older
        if Path(f"{path}{side}").exists():
            os.rename(f"{path}{side}", f"{target}{side}")
    os.rename(path, target)
    return target
