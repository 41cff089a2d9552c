"""A faster ``dataclasses.replace`` for the engines' frozen states and pieces.

The search bot applies hundreds of thousands of actions a decision, and every action copies
a frozen state with a few fields changed. ``dataclasses.replace`` reads every field back
through ``getattr`` and runs ``__init__`` again; for a frozen dataclass whose ``__init__``
only stores its fields (no ``__post_init__``, no ``init=False`` fields, no cached properties,
no slots) the copy is the instance's dictionary with the changes laid over it: the same
object, at a fraction of the cost. Any other class, or a name that is not a field, goes to
``dataclasses.replace`` (which refuses an unknown name as it always did).
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from typing import Any, TypeVar

T = TypeVar("T")

_FIELDS: dict[type, frozenset[str] | None] = {}
"""Per class: its field names when the plain copy is safe, else None."""


def _plain_fields(cls: type) -> frozenset[str] | None:
    if cls not in _FIELDS:
        fields = dataclasses.fields(cls)
        plain = (cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
                 and not hasattr(cls, "__post_init__")
                 and "__slots__" not in vars(cls)
                 and all(f.init for f in fields)
                 and not any(isinstance(v, cached_property)
                             for k in cls.__mro__ for v in vars(k).values()))
        _FIELDS[cls] = frozenset(f.name for f in fields) if plain else None
    return _FIELDS[cls]


def replace(obj: T, /, **changes: Any) -> T:
    """``obj`` with ``changes``, like ``dataclasses.replace``."""
    names = _plain_fields(type(obj))
    if names is None or not changes.keys() <= names:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(type(obj))
    copy = new.__dict__
    copy.update(obj.__dict__)
    copy.update(changes)
    return new
