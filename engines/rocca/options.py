"""Rocca's options: the ruling choices and the variants of the rule text, each documented."""

from __future__ import annotations

from dataclasses import dataclass

from engines.core import OptionError, option


@dataclass(frozen=True)
class RoccaOptions:
    starting_pieces: int = option(7, "Pieces in each bowl at the start (setting up: seven).")
    win_target: int | None = option(
        None, "Pieces in the bowl that win at the end of your own turn; null = twice starting_pieces."
    )
    strict_calls: bool = option(
        False,
        "Read the gate-call rule literally: an uncalled shot that touches any piece fouls "
        "(foul reason uncalled_contact); a called gate is recorded with 'shoot called'. "
        "Off: the gate a shot passed counts as the obvious call (ruling).",
    )
    chess_clock: bool = option(
        False, "Time each turn with a chess clock: 'timeout SEAT' puts that player out."
    )
    clock_minutes: int = option(
        10, "Minutes on each player's chess clock (with chess_clock); the referee's timer counts them."
    )
    solitaire: bool = option(
        False, "One player drops solitaire_pieces at once and tries to clear them all without a foul."
    )
    solitaire_pieces: int = option(12, "Pieces dropped in a solitaire game.")

    def __post_init__(self):
        if self.starting_pieces < 1:
            raise OptionError("option starting_pieces must be at least 1")
        if self.win_target is not None and self.win_target <= self.starting_pieces:
            raise OptionError("option win_target must be more than starting_pieces")
        if self.clock_minutes < 1:
            raise OptionError("option clock_minutes must be at least 1")
        if self.solitaire_pieces < 2:
            raise OptionError("option solitaire_pieces must be at least 2")

    @property
    def target(self) -> int:
        """The winning bowl: the option, or double the start (rule "Finishing the game")."""
        return self.win_target if self.win_target is not None else 2 * self.starting_pieces
