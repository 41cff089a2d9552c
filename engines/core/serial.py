"""Plain-data conversion between frozen dataclasses and JSON values.

Engine states are trees of frozen dataclasses, tuples, enums and scalars. Writing a
to_json/from_json pair by hand for every game would be many copies of one idea, so the
conversion is driven by the type hints instead: ``to_data`` walks the value, ``from_data``
walks the declared type. Supported hints: None, bool, int, float, str, Enum subclasses,
dataclasses, ``tuple[X, ...]``, ``tuple[X, Y]``, ``frozenset[X]``, ``dict[str, X]``,
``X | None`` and other unions of those (tried in order).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import cache
from typing import Any, Union

from .errors import StateError


def to_data(value: Any) -> Any:
    """Turn a value built of dataclasses, tuples, enums and scalars into JSON data."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
    if isinstance(value, tuple | list):
        return [to_data(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted((to_data(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    raise TypeError(f"cannot serialize {type(value).__name__}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_data(tp: Any, data: Any, where: str = "state") -> Any:
    """Rebuild a value of type ``tp`` from JSON data; a mismatch raises StateError naming ``where``."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return data
    if tp is None or tp is type(None):
        if data is not None:
            raise StateError(f"{where}: expected null, got {data!r}")
        return None
    if origin in (Union, types.UnionType):
        errors = []
        for arg in args:
            try:
                return from_data(arg, data, where)
            except StateError as exc:
                errors.append(str(exc))
        raise StateError(f"{where}: {data!r} fits none of the allowed kinds")
    if origin is typing.Literal:
        if data not in args:
            raise StateError(f"{where}: {data!r} is not one of {list(args)}")
        return data
    if tp is bool:
        if not isinstance(data, bool):
            raise StateError(f"{where}: expected true or false, got {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise StateError(f"{where}: expected a whole number, got {data!r}")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise StateError(f"{where}: expected a number, got {data!r}")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise StateError(f"{where}: expected text, got {data!r}")
        return data
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            raise StateError(f"{where}: {data!r} is not a {tp.__name__}") from None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise StateError(f"{where}: expected an object, got {data!r}")
        hints = _hints(tp)
        kwargs = {}
        for f in dataclasses.fields(tp):
            if not f.init:
                continue
            if f.name not in data:
                if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                    continue
                raise StateError(f"{where}: missing field {f.name!r}")
            kwargs[f.name] = from_data(hints[f.name], data[f.name], f"{where}.{f.name}")
        unknown = set(data) - {f.name for f in dataclasses.fields(tp)}
        if unknown:
            raise StateError(f"{where}: unknown field(s) {sorted(unknown)}")
        try:
            return tp(**kwargs)
        except (TypeError, ValueError) as exc:
            raise StateError(f"{where}: {exc}") from None
    if origin in (tuple, list, frozenset, set):
        if not isinstance(data, list):
            raise StateError(f"{where}: expected a list, got {data!r}")
        if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(data):
                raise StateError(f"{where}: expected {len(args)} items, got {len(data)}")
            return tuple(from_data(a, d, f"{where}[{i}]") for i, (a, d) in enumerate(zip(args, data, strict=True)))
        item = args[0] if args else Any
        items = [from_data(item, d, f"{where}[{i}]") for i, d in enumerate(data)]
        return {tuple: tuple, list: list, frozenset: frozenset, set: set}[origin](items)
    if origin is dict:
        if not isinstance(data, dict):
            raise StateError(f"{where}: expected an object, got {data!r}")
        kt, vt = args or (str, Any)
        out = {}
        for k, v in data.items():
            key = int(k) if kt is int else k
            out[key] = from_data(vt, v, f"{where}.{k}")
        return out
    raise TypeError(f"unsupported type hint {tp!r} at {where}")
