"""The ``tabletop`` command. Each subcommand lives in its own module under ``referee.commands``
and registers itself with ``register(subparsers)``; ``run(args)`` returns the exit status."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import sys

# one line per subcommand module
COMMANDS = [
    "referee.commands.games",
    "referee.commands.replay",
    "referee.commands.play",
    "referee.commands.demo",
    "referee.commands.sim",
    "referee.commands.config",
    "referee.commands.run",
    "referee.commands.journal",
    "referee.commands.rocca",
    "referee.commands.kiosk",
    "referee.commands.kit",
    "referee.commands.doctor",
    "referee.commands.room",
    "referee.commands.league",
    "referee.commands.arena",
]


class UserError(Exception):
    """A mistake of the user's (bad file, bad option): printed as one line, exit status 1."""


def installed_version() -> str:
    """The release pip installed (the distribution's metadata), so a bug report names it."""
    try:
        return importlib.metadata.version("tabletop-companion")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabletop", description="Tabletop Companion: a referee for tabletop games.")
    parser.add_argument("--version", action="version", version=f"tabletop {installed_version()}",
                        help="print the installed release and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except UserError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:  # `tabletop games | head`: the reader left, nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
