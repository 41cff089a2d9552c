"""The ``[kiosk]`` section of a table config: what a game night offers and how it is watched.

It lives in the same TOML file as the table (one file per table, one thing for the installer
to put in /etc/tabletop) and is checked key by key the same way, every message naming its key.
"""

from __future__ import annotations

import ipaddress
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines.core.registry import game_ids

from .config import BUTTON_ROLES, ConfigError, TableConfig, parse_config


@dataclass(frozen=True)
class KioskConfig:
    games: tuple[str, ...]
    """The games offered on the choose screen, in that order."""
    abandon_key: str = "no"
    """Held (not pressed) on any panel, this key asks to abandon the game in play."""
    bots: tuple[str, ...] = ()
    """Seats the referee plays itself (empty chairs, a demo night)."""
    web_bind: str = "127.0.0.1"
    web_port: int = 8080
    admin_pin: str | None = None
    """Without a PIN the big-screen page is strictly read-only."""


def parse_kiosk(data: Any, seat_names: list[str]) -> KioskConfig:
    """Check the ``[kiosk]`` table; ConfigError names the first bad key."""
    if not isinstance(data, dict):
        raise ConfigError("kiosk: expected a table (section)")
    data = dict(data)
    known = game_ids()
    games = data.pop("games", list(known))
    if not isinstance(games, list) or not games or not all(isinstance(g, str) for g in games):
        raise ConfigError("kiosk.games: expected a non-empty list of game ids")
    for g in games:
        if g not in known:
            raise ConfigError(f"kiosk.games: unknown game {g!r}; the games are: {', '.join(known)}")
    abandon = data.pop("abandon_key", "no")
    if abandon not in BUTTON_ROLES:
        raise ConfigError(f"kiosk.abandon_key: {abandon!r} is not a button role ({', '.join(BUTTON_ROLES)})")
    bots = data.pop("bots", [])
    if not isinstance(bots, list) or any(b not in seat_names for b in bots):
        raise ConfigError(f"kiosk.bots: expected a list of seat names ({', '.join(seat_names)})")
    web = data.pop("web", {})
    if not isinstance(web, dict):
        raise ConfigError("kiosk.web: expected a table (section)")
    web = dict(web)
    bind = web.pop("bind", "127.0.0.1")
    try:
        ipaddress.ip_address(bind)
    except (ValueError, TypeError):
        raise ConfigError(f"kiosk.web.bind: {bind!r} is not an IP address (127.0.0.1 keeps the page on this Pi)") from None
    port = web.pop("port", 8080)
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise ConfigError(f"kiosk.web.port: {port!r} is not a TCP port (0 to 65535)")
    pin = web.pop("admin_pin", None)
    if pin is not None and (not isinstance(pin, str) or not pin.isdigit() or len(pin) < 4):
        raise ConfigError("kiosk.web.admin_pin: write at least 4 digits, in quotes")
    for rest, where in ((web, "kiosk.web"), (data, "kiosk")):
        if rest:
            raise ConfigError(f"{where}.{sorted(rest)[0]}: unknown key")
    return KioskConfig(tuple(games), abandon, tuple(bots), bind, port, pin)


def load_kiosk_config(path: str | Path) -> tuple[TableConfig, KioskConfig]:
    """The table and its kiosk section from one file; ConfigError names file and key."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: not a valid TOML text file ({exc})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: {exc.strerror}") from None
    try:
        table = parse_config(data)
        return table, parse_kiosk(data.get("kiosk", {}), table.seat_names)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
