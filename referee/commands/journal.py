"""``tabletop journal``: list the games a table's journal holds, export one as a game record."""

from __future__ import annotations

import time

from referee.cli import UserError
from referee.journal import Journal, JournalDamaged, JournalError


def register(sub) -> None:
    p = sub.add_parser("journal", help="list or export the games in a table's journal")
    jsub = p.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    ls = jsub.add_parser("list", help="every game in the journal")
    ls.add_argument("journal", help="the journal file (table.journal in the config)")
    ls.set_defaults(run=run_list)
    ex = jsub.add_parser("export", help="write one game as a record (tabletop replay reads it)")
    ex.add_argument("journal")
    ex.add_argument("game", type=int, help="the game's number, from `tabletop journal list`")
    ex.add_argument("record", help="the .jsonl file to write")
    ex.set_defaults(run=run_export)


def _open(path: str) -> Journal:
    """Opened read-only: looking at a journal never changes it, a damaged one included."""
    try:
        return Journal(path, read_only=True)
    except JournalDamaged as exc:
        raise UserError(f"{exc} (left as it is; `tabletop run` and `tabletop kiosk` move a damaged "
                        "journal aside and start a new one)") from None
    except JournalError as exc:
        raise UserError(str(exc)) from None


def run_list(args) -> int:
    journal = _open(args.journal)
    try:
        for g in journal.games():
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.started))
            n = len(journal.actions(g.id))
            status = g.result or "unfinished (tabletop run resumes it)"
            print(f"{g.id:4}  {when}  {g.game}  {', '.join(g.players)}  {n} actions  {status}")
    finally:
        journal.close()
    return 0


def run_export(args) -> int:
    journal = _open(args.journal)
    try:
        record = journal.record(args.game)
    except JournalError as exc:
        raise UserError(str(exc)) from None
    finally:
        journal.close()
    try:
        record.write(args.record)
    except OSError as exc:
        raise UserError(f"cannot write {args.record}: {exc.strerror}") from None
    print(f"wrote {args.record}: {record.header.game}, {len(record.actions)} actions")
    return 0
