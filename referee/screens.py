"""What each display says: a seat's screen and the table's, laid out on the 6x10 text grid.

Screens are built as text first and drawn second, so what a player reads is one function of
the session's state (and the tests read it back from the image with ``device.font.read_lines``).
A 128x64 OLED holds 6 lines of 21 characters, a 128x32 one 3 lines, a 256x64 one 6 lines of 42.

The layout never cuts a sentence: a screen is a few pinned lines (whose turn, the seat's
selection) and a body (the score table, then the last call or a banner) wrapped at spaces; a
body longer than the room left is split into pages that turn by themselves (``View.page``, turned
by the session), each page marked "1/2" on its first line, and a sentence that fits on a page is
not broken across two. Names are shortened the same way on
every line of a display (``short_names``), so a score table of six seats fits 21 characters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from luma.core.render import canvas
from PIL import ImageDraw

from device.font import draw_line, rows, wrap
from engines.core.state import State

from .words import Call, scores, turn_words
from .words import score_text as score_text

Page = tuple[list[str], int]
"""A screenful: its lines and how many of the last ones are lit as a banner."""


@dataclass
class View:
    """Everything the screens show, kept by the session."""

    title: str
    state: State
    call: Call | None = None
    """The last accepted action, in words, with who called it."""
    last_event: str = ""
    announcement: str = ""
    refusals: dict[int | None, str] = field(default_factory=dict)
    selection: list[str] = field(default_factory=list)
    proposal: str = ""
    clocks: dict[int, str] = field(default_factory=dict)
    """Seat index -> the time left on its chess clock ("4:59"), when the game has one."""
    clock_running: int | None = None
    panels_down: dict[str, str] = field(default_factory=dict)
    """Seat name -> "lost" or "silent" for each serial panel not heard now."""
    entering: bool = True
    """Whether a person enters the chance outcome now (False: the referee rolls it)."""
    page: int = 0
    """Which page of a long screen is shown; the session turns it while nothing happens."""


def mover_text(state: State) -> str:
    """Whose turn, for a line outside the OLEDs (the terminal on resume, the big screen)."""
    return turn_words(state, entering=True)


def short_names(names: Sequence[str], width: int) -> list[str]:
    """``names`` cut to ``width`` characters, kept apart: two names with the same start end in
    their seat number instead ("Alex", "Alfi" -> "Al1", "Al2" at width 3)."""
    cut = [n[:width] for n in names]
    if len(set(cut)) == len(cut):
        return cut
    return [c if cut.count(c) == 1 else f"{n[:width - len(str(i + 1))]}{i + 1}"
            for i, (n, c) in enumerate(zip(names, cut, strict=True))]


def score_rows(pairs: Sequence[tuple[str, str]], cols: int) -> list[str]:
    """The score on as few lines as possible: "north 2 south 0" when it fits on one, else a
    table of cells "Name  6" on at most two lines if names keep 3 letters there (the longest
    names such a table allows), else three lines or one cell a line."""
    if not pairs:
        return []
    line = " ".join(f"{p} {v}" for p, v in pairs)
    if len(line) <= cols:
        return [line]
    n, value_w = len(pairs), max(len(v) for _, v in pairs)
    longest = max(len(p) for p, _ in pairs)

    def name_room(per_row: int) -> int:
        return min((cols + 1) // per_row - 2 - value_w, longest)

    two_lines = [k for k in range(n, (n + 1) // 2 - 1, -1) if name_room(k) >= min(longest, 3)]
    if two_lines:  # at most two lines: the longest names, then the most to a line
        per_row = max(two_lines, key=lambda k: (name_room(k), k))
    else:
        per_row = next((k for k in ((n + 2) // 3, 1) if name_room(k) >= min(longest, 3)), 1)
    name_w = max(name_room(per_row), 1)
    names = short_names([p for p, _ in pairs], name_w)
    cells = [f"{name:<{name_w}} {v:>{value_w}}" for name, (_, v) in zip(names, pairs, strict=True)]
    return [" ".join(cells[i:i + per_row])[:cols] for i in range(0, n, per_row)]


def tagged(text: str, tag: str, cols: int) -> list[str]:
    """``text`` wrapped, with ``tag`` (a clock, a page number) at the right of its first line."""
    if not tag:
        return wrap(text, cols)
    lines = wrap(text, cols - len(tag) - 1)
    lines[0] = f"{lines[0]:<{cols - len(tag)}}{tag}"
    return lines


def _split(blocks: list[list[str]], room: int, flowing: int = 0) -> list[list[str]]:
    """Blocks of lines (a sentence each, wrapped) on pages of ``room`` lines: a block starts a
    new page rather than break across two, unless it is longer than a page or one of the last
    ``flowing`` blocks (a banner: it starts on the page at hand, not a page later)."""
    chunks: list[list[str]] = [[]]
    for i, block in enumerate(blocks):
        whole = i < len(blocks) - flowing
        if whole and len(chunks[-1]) + len(block) > room and chunks[-1] and len(block) <= room:
            chunks.append([])
        for line in block:
            if len(chunks[-1]) == room:
                chunks.append([])
            chunks[-1].append(line)
    return chunks


def pages(head: str, tag: str, pinned: list[str], body: list[list[str]], lit: int, cols: int,
          height: int) -> list[Page]:
    """Lay a screen out: ``head`` wrapped with ``tag`` (a clock) at the right of its first line,
    the ``pinned`` lines, then the ``body``'s blocks (the score, each sentence wrapped) over
    pages of the rows left, a sentence kept on one page where it fits one; the last ``lit``
    body lines are a banner (the last block), which starts at once on the first page it
    reaches. With several pages each first line also carries "n/N"."""
    def top(page_tag: str) -> list[str]:
        if len(head) + len(page_tag) + len(tag) + 2 > cols:
            page_tag = ""  # no room beside the head: the pages go unmarked
        right = " ".join(t for t in (page_tag, tag) if t)
        return tagged(head, right, cols) + [p for line in pinned for p in wrap(line, cols)]

    fixed = top("")  # as many lines with a page number: it goes only where the head leaves room
    room = height - len(fixed)
    lines = [line for block in body for line in block]
    if len(lines) <= room:
        return [(fixed + lines, min(lit, len(lines)))]
    if room <= 0:  # the pinned part alone is a screenful: page everything, unmarked
        fixed, body, room = [], [fixed, *body], height
    chunks = _split(body, room, 1 if lit else 0)
    first_lit = sum(len(block) for block in body) - lit
    out: list[Page] = []
    done = 0
    for k, chunk in enumerate(chunks):
        lit_here = sum(1 for i in range(done, done + len(chunk)) if i >= first_lit)
        done += len(chunk)
        out.append(((top(f"{k + 1}/{len(chunks)}") if fixed else []) + chunk, lit_here))
    return out


def _urgent(view: View, seat: int | None) -> list[str]:
    """What a display must show whatever the page: a refusal to this seat (None: the table's)
    or the camera's verdict waiting for a yes or an overrule."""
    if seat in view.refusals:
        return ["no: " + view.refusals[seat]]
    if view.proposal:
        return ["camera says: " + view.proposal + ("? yes/no" if seat is not None else "?")]
    return []


def _message(view: View, cols: int) -> tuple[list[list[str]], int]:
    """The body's last part, as blocks of wrapped lines: a banner, or the last call and the
    last event; with how many of its lines are a banner."""
    if view.announcement:
        banner = wrap(view.announcement, cols)
        return [banner], len(banner)
    blocks = [wrap(view.call.line(), cols)] if view.call else []
    if view.last_event:
        blocks.append(wrap(view.last_event, cols))
    return blocks, 0


def seat_pages(view: View, seat: int, cols: int = 21, height: int = 6) -> list[Page]:
    """A seat's screen: its name and whose turn (or what to enter), a refusal or the camera's
    verdict, its selection when it is to act; then the score and a banner, its own hidden
    cards when it is to move, or the last call."""
    st = view.state
    names = short_names(st.players, max(cols // 2, 3))
    mine = st.to_move == seat and not st.is_over
    head = f"{names[seat]}: " + ("your go" if mine else turn_words(st, view.entering, names, seat))
    acting = mine or st.is_chance and view.entering and view.selection  # anyone may enter it
    pinned = _urgent(view, seat) + ([s.strip() for s in view.selection if s.strip()] if acting else [])
    body = [score_rows(scores(st), cols)]
    message, lit = _message(view, cols)
    if not lit and mine and (secret := st.private_text(seat)):  # the seat's own display: its hand
        message = [wrap(secret, cols)]
    return pages(head, view.clocks.get(seat, ""), pinned, body + message, lit, cols, height)


def table_pages(view: View, cols: int = 21, height: int = 6) -> list[Page]:
    """The table's screen: the game and whose turn, a refusal or the camera's verdict, the
    score, then the result, panels not heard, a banner, or the last call and event."""
    st = view.state
    names = short_names(st.players, max(cols // 2, 3))
    running = view.clocks.get(view.clock_running, "") if view.clock_running is not None else ""
    head = turn_words(st, view.entering, names)
    body = [score_rows(scores(st), cols)]
    if st.is_over and st.result:
        message, lit = [wrap(st.result.text, cols)], 0
    elif view.panels_down and not view.announcement:
        down = ", ".join(f"{seat} {why}" for seat, why in view.panels_down.items())
        message, lit = [wrap(f"panel {down}", cols)], 0
    else:
        message, lit = _message(view, cols)
    turn = tagged(head, running, cols)
    return pages(view.title, "", [*turn, *_urgent(view, None)], body + message, lit, cols, height)


def page_of(all_pages: list[Page], page: int) -> Page:
    return all_pages[page % len(all_pages)]


def seat_lines(view: View, seat: int, cols: int = 21, height: int = 6) -> Page:
    """The page of a seat's screen shown now."""
    return page_of(seat_pages(view, seat, cols, height), view.page)


def table_lines(view: View, cols: int = 21, height: int = 6) -> Page:
    """The page of the table's screen shown now."""
    return page_of(table_pages(view, cols, height), view.page)


def draw(device, lines: list[str], inverted: int = 0, text_width: int | None = None,
         extra: Callable[[ImageDraw.ImageDraw], None] | None = None) -> None:
    """Draw text lines on a luma device, the last ``inverted`` lines as a lit banner, in the
    left ``text_width`` pixels; ``extra`` paints the rest (a board picture)."""
    n = rows(device.height)
    shown = (lines + [""] * n)[:n]
    first_inverted = len(lines[:n]) - inverted if inverted else n
    with canvas(device) as d:
        for i, text in enumerate(shown):
            draw_line(d, i, text, text_width or device.width, invert=first_inverted <= i < len(lines[:n]))
        if extra:
            extra(d)
