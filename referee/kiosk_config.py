"""The ``[kiosk]`` section of a table config: what a game night offers and how it is watched.

It lives in the same TOML file as the table (one file per table, one thing for the installer
to put in /etc/tabletop) and is checked key by key the same way, every message naming its key.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines.core.registry import game_ids

from .config import BUTTON_ROLES, ConfigError, Reader, TableConfig, load_config


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
    r = Reader(data, "kiosk")
    known = game_ids()
    games = r.take("games", list, list(known))
    if not games or not all(isinstance(g, str) for g in games):
        raise ConfigError("kiosk.games: expected a non-empty list of game ids")
    for i, g in enumerate(games):
        if g not in known:
            raise ConfigError(f"kiosk.games: unknown game {g!r}; the games are: {', '.join(known)}")
        if g in games[:i]:
            raise ConfigError(f"kiosk.games: {g!r} is listed twice")
    abandon = r.take("abandon_key", str, "no")
    if abandon not in BUTTON_ROLES:
        raise ConfigError(f"kiosk.abandon_key: {abandon!r} is not a button role ({', '.join(BUTTON_ROLES)})")
    bots = r.take("bots", list, [])
    for b in bots:
        if b not in seat_names:
            raise ConfigError(f"kiosk.bots: expected a list of seat names "
                              f"({', '.join(seat_names)}); {b!r} is not one")
    web = Reader(r.take("web", dict, {}), "kiosk.web")
    bind = web.take("bind", str, "127.0.0.1")
    _check_bind(web.key("bind"), bind)
    port = web.take("port", int, 8080)
    if not 0 <= port <= 65535:
        raise ConfigError(f"kiosk.web.port: {port!r} is not a TCP port "
                          "(0 to 65535; 0: any free port)")
    pin = web.take("admin_pin", (str, int))
    digits = isinstance(pin, str) and pin.isascii() and pin.isdigit() and len(pin) >= 4
    if pin is not None and not digits:
        raise ConfigError("kiosk.web.admin_pin: write at least 4 digits, in quotes")
    web.done()
    r.done()
    return KioskConfig(tuple(games), abandon, tuple(bots), bind, port, pin)


def _check_bind(key: str, bind: str) -> None:
    """The big screen's server listens on IPv4 (``http.server``'s default family), so an IPv6
    address is refused here rather than failing when the night starts."""
    try:
        address = ipaddress.ip_address(bind)
    except ValueError:
        raise ConfigError(f"{key}: {bind!r} is not an IP address "
                          "(127.0.0.1 keeps the page on this Pi)") from None
    if address.version != 4:
        raise ConfigError(f"{key}: {bind!r} is an IPv6 address; the big screen serves IPv4 only "
                          "(127.0.0.1 for this Pi, 0.0.0.0 for the LAN)")


def load_kiosk_config(path: str | Path) -> tuple[TableConfig, KioskConfig]:
    """The table and its kiosk section from one file, checked as ``tabletop config check`` does."""
    table = load_config(path)
    assert table.kiosk is not None  # parse_config always fills it
    return table, table.kiosk
