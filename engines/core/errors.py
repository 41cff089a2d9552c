"""The exceptions an engine raises. Each carries a sentence a player can read."""


class IllegalAction(ValueError):
    """The action breaks a rule; the state it was applied to is unchanged.

    The message is meant for the table: "That square is occupied", not a traceback.
    """


class NotationError(IllegalAction):
    """A piece of text is not an action of this game's notation."""


class OptionError(ValueError):
    """An unknown option, or a value of the wrong kind; the message names the option."""


class StateError(ValueError):
    """A serialized state does not describe a state of this game."""
