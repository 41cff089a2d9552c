"""Subcommands of ``tabletop``: one module each, listed in ``referee.cli.COMMANDS``."""
