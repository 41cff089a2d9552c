"""The ``[league]`` section of a table config and the broker URL shared by every league command.

Checked key by key like the rest of the table config (``referee.config.Reader``): a bad broker URL,
a table name the topics cannot carry, or a certificate file that is missing is named with its key
before the night starts, never found out when the first result is due.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from referee.config import ConfigError, Reader

SCHEMES = {"mqtt": 1883, "mqtts": 8883}
"""Broker URL schemes and their default ports: plain TCP, and TLS."""
TABLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
"""A table's name is one level of its topics: no '/', '+' or '#', short enough for a screen."""
RESERVED_NAMES = ("room",)
"""Names of topics that are not a table's (the room's own topics)."""


@dataclass(frozen=True)
class Broker:
    """Where the broker listens, parsed from ``mqtt://HOST:PORT`` (``mqtts://`` for TLS)."""

    host: str
    port: int
    tls: bool = False

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


@dataclass(frozen=True)
class Credentials:
    """How a client proves who it is: a username and password, and/or TLS files."""

    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None


@dataclass(frozen=True)
class LeagueConfig:
    broker: Broker
    table: str
    credentials: Credentials = Credentials()


def parse_broker(url: str, key: str = "--broker") -> Broker:
    """``mqtt://HOST[:PORT]`` or ``mqtts://HOST[:PORT]``; ConfigError names ``key`` otherwise."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise ConfigError(f"{key}: {url!r} is not a broker URL ({exc})") from None
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise ConfigError(f"{key}: {url!r} is not a broker URL; write mqtt://HOST:PORT "
                          "(or mqtts://HOST:PORT for TLS)")
    if parts.path not in ("", "/") or parts.query or parts.username:
        raise ConfigError(f"{key}: {url!r}: a broker URL is only mqtt://HOST:PORT "
                          "(the username and password are keys of their own)")
    return Broker(parts.hostname, port or SCHEMES[parts.scheme], parts.scheme == "mqtts")


def check_table_name(name: str, key: str = "--table") -> str:
    if not TABLE_NAME.fullmatch(name) or name in RESERVED_NAMES:
        raise ConfigError(f"{key}: {name!r} cannot name a table: use 1 to 32 letters, digits, "
                          f"'-' or '_' (not {', '.join(RESERVED_NAMES)})")
    return name


def parse_league(data: Any) -> LeagueConfig:
    """Check the ``[league]`` table; ConfigError names the first bad key."""
    r = Reader(data, "league")
    broker = parse_broker(r.take("broker", str, required=True), r.key("broker"))
    table = check_table_name(r.take("table", str, required=True), r.key("table"))
    username = r.take("username", str)
    password = r.take("password", str)
    if password is not None and username is None:
        raise ConfigError("league.password: a password needs its league.username")
    files = {name: r.take(name, str) for name in ("ca_file", "cert_file", "key_file")}
    for name, path in files.items():
        if path is not None and not Path(path).is_file():
            raise ConfigError(f"league.{name}: {path!r}: no such file")
    if (files["cert_file"] is None) != (files["key_file"] is None):
        raise ConfigError("league.cert_file: a client certificate needs both cert_file and key_file")
    if (files["ca_file"] or files["cert_file"]) and not broker.tls:
        raise ConfigError(f"league.broker: certificate files need a TLS broker: write "
                          f"mqtts://{broker.host}:{SCHEMES['mqtts']}, not {broker.url}")
    r.done()
    return LeagueConfig(broker, table, Credentials(username, password, **files))


PASSWORD_VARIABLE = "TABLETOP_LEAGUE_PASSWORD"
"""The environment variable a command reads the broker password from (a command line is seen
by every user of the machine in ``ps``)."""


def credentials_from_env(username: str | None) -> Credentials:
    """``--league-user`` / ``--user`` with the password from PASSWORD_VARIABLE."""
    password = os.environ.get(PASSWORD_VARIABLE) if username else None
    if username is not None and password is None:
        raise ConfigError(f"--league-user {username}: set the password in ${PASSWORD_VARIABLE}")
    return Credentials(username, password)


def league_from_args(url: str | None, table: str | None, username: str | None,
                     configured: LeagueConfig | None) -> LeagueConfig | None:
    """The league of ``tabletop run``: ``--league``/``--table`` over the config's ``[league]``."""
    if url is None and table is None and username is None:
        return configured
    if url is None and configured is None:
        raise ConfigError("--table and --league-user need --league mqtt://HOST:PORT "
                          "(or a [league] section in the config)")
    broker = parse_broker(url, "--league") if url else configured.broker  # type: ignore[union-attr]
    name = table or (configured.table if configured else None)
    if name is None:
        raise ConfigError("--league: name this table with --table NAME")
    credentials = (credentials_from_env(username) if username is not None
                   else configured.credentials if configured else Credentials())
    return LeagueConfig(broker, check_table_name(name), credentials)
