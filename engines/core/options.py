"""Game options: a frozen dataclass per game, each field documented.

A game declares its options once::

    @dataclass(frozen=True)
    class Options:
        gusts: bool = option(False, "Add 6-8 gust chips to the windbag (Appendix A).")

and everything else is derived: defaults, validation of a user's dict with messages that name
the bad key, the listing of ``tabletop games``, and the JSON in a record header.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any

from .errors import OptionError, StateError
from .serial import from_data, to_data


def option(default: Any, doc: str) -> Any:
    """A documented option field with its default."""
    return dataclasses.field(default=default, metadata={"doc": doc})


@dataclasses.dataclass(frozen=True)
class OptionInfo:
    name: str
    default: Any
    doc: str
    kind: str


def _kind(tp: Any) -> str:
    if typing.get_origin(tp) is typing.Literal:
        return " | ".join(repr(a) for a in typing.get_args(tp))
    return getattr(tp, "__name__", str(tp)).replace("NoneType", "None")


def describe(cls: type) -> list[OptionInfo]:
    """Every option of an options class: name, default, documentation, kind."""
    hints = typing.get_type_hints(cls)
    return [
        OptionInfo(f.name, f.default, f.metadata.get("doc", ""), _kind(hints[f.name]))
        for f in dataclasses.fields(cls)
    ]


def make_options(cls: type, given: Mapping[str, Any] | Any | None = None) -> Any:
    """Build an options instance from a dict (or pass an instance through), naming any bad key."""
    if given is None:
        return cls()
    if isinstance(given, cls):
        return given
    if not isinstance(given, Mapping):
        raise OptionError(f"options must be a table of name = value, not {type(given).__name__}")
    names = {f.name for f in dataclasses.fields(cls)}
    for key in given:
        if key not in names:
            raise OptionError(f"unknown option {key!r}; the options are: {', '.join(sorted(names))}")
    merged = {**to_data(cls()), **given}
    try:
        return from_data(cls, merged, "options")
    except StateError as exc:
        raise OptionError(str(exc)) from None


def options_data(opts: Any) -> dict[str, Any]:
    """The options as JSON data, for a record header."""
    return to_data(opts)
