"""The ``tabletop`` command. Each subcommand lives in its own module under ``referee.commands``
and registers itself with ``register(subparsers)``; ``run(args)`` returns the exit status."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# one line per subcommand module, named as its command
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
    import importlib.metadata  # read only when asked: every other command starts without it

    try:
        return importlib.metadata.version("tabletop-companion")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


class _Version(argparse.Action):
    """``--version``: the installed release, looked up when asked for."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"tabletop {installed_version()}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``command`` one of the commands, only that one's module is
    imported (`tabletop rocca analyze` starts without the kiosk's web server, the engines and the
    devices: a tenth of a second of every short run). Anything else (no command, a help, a
    mistyped name) gets every command."""
    parser = argparse.ArgumentParser(prog="tabletop", description="Tabletop Companion: a referee for tabletop games.")
    parser.add_argument("--version", action=_Version, help="print the installed release and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    named = [name for name in COMMANDS if name.rpartition(".")[2] == command]
    for name in named or COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words[0] if words else None)
    args = parser.parse_args(words)
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
