"""``tabletop games``: every game id with its options, defaults and documentation."""

from __future__ import annotations

import json

from engines.core.registry import game_class, game_ids


def register(sub) -> None:
    p = sub.add_parser("games", help="list the games and their options")
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    listing = []
    for gid in game_ids():
        cls = game_class(gid)
        listing.append(
            {
                "id": gid,
                "title": cls.title,
                "players": [cls.min_players, cls.max_players],
                "options": [
                    {"name": o.name, "default": o.default, "kind": o.kind, "doc": o.doc}
                    for o in cls.option_info()
                ],
            }
        )
    if args.json:
        print(json.dumps(listing, indent=2))
        return 0
    for g in listing:
        lo, hi = g["players"]
        print(f"{g['id']}  {g['title']}  ({lo if lo == hi else f'{lo}-{hi}'} players)")
        for o in g["options"]:
            print(f"    {o['name']} = {json.dumps(o['default'])}  [{o['kind']}]  {o['doc']}")
    return 0
