"""Rocca: the bookkeeping referee of a dexterity game (the Rocca rules, the rulings).

The engine never decides what happens on the board; drops and shots are chance nodes whose
outcomes come from the vision judge or the players (see ``outcome_from_verdict``).
"""

from .game import Rocca
from .options import RoccaOptions
from .state import RoccaState
from .verdict import UnsureVerdict, VerdictError, outcome_from_verdict

__all__ = ["Rocca", "RoccaOptions", "RoccaState", "UnsureVerdict", "VerdictError", "outcome_from_verdict"]
