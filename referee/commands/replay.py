"""``tabletop replay RECORD``: re-validate every line of a game record."""

from __future__ import annotations

import json

from engines.core.records import RecordError, load_record, replay
from referee.cli import UserError


def register(sub) -> None:
    p = sub.add_parser("replay", help="replay and validate a game record")
    p.add_argument("record", help="a .jsonl game record")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    try:
        record = load_record(args.record)
        result = replay(record)
    except OSError as exc:
        raise UserError(f"cannot read {args.record}: {exc.strerror}") from None
    except RecordError as exc:
        raise UserError(f"{args.record}: {exc}") from None
    final = result.final
    if args.json:
        print(json.dumps(final.to_json(), indent=2))
    else:
        print(final.render())
        print(f"{len(record.actions)} actions replayed; ", end="")
        print(final.result.text if final.result else "the game is not over")
    return 0
