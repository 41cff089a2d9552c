"""``tabletop config check FILE``: read a table config and say what it wires, or what is wrong.

It runs the same checks as every command that loads a config (``run``, ``kiosk``, ``doctor``),
the ``[kiosk]`` section included, so a file it passes is not refused at the game night; and it
looks on this machine for an absolute journal path's folder, as opening the journal will."""

from __future__ import annotations

from pathlib import Path

from referee import journal_file
from referee.cli import UserError
from referee.config import ConfigError, TableConfig, load_config


def register(sub) -> None:
    p = sub.add_parser("config", help="check a table config file")
    csub = p.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    c = csub.add_parser("check", help="validate a table config and summarise it")
    c.add_argument("file", help="a table config (.toml), see docs/table-config.md")
    c.set_defaults(run=run)


def run(args) -> int:
    try:
        config = load_config(args.file)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    journal = Path(config.journal)
    if journal.is_absolute():  # a relative one is placed when the table starts
        try:
            journal_file.inspect(journal)
        except journal_file.Unusable as exc:
            raise UserError(f"{args.file}: table.journal: {exc}") from None
    for line in summary(config):
        print(line)
    return 0


def summary(config: TableConfig) -> list[str]:
    """One line per wired part, so a newcomer can compare the file with the table."""
    lines = [f"game: {config.game or '(chosen with --game)'}; dice: {config.dice}; journal: {config.journal}"]
    for seat in config.seats:
        if seat.serial:
            how = f"serial panel {seat.serial.serial_number or seat.serial.port}"
        elif seat.buttons:
            how = "buttons " + ", ".join(f"{role}=GPIO{pin}" for role, pin in seat.buttons.items())
        else:
            how = "no panel (keyboard only)"
        lines.append(f"seat {seat.name}: {how}")
    for d in config.displays:
        if d.bus == "i2c":
            at = f"I2C bus {d.port} address {d.address:#04x}"
            if d.mux_channel is not None:
                at += f" via TCA9548A {d.mux_address:#04x} channel {d.mux_channel}"
        else:
            at = f"SPI {d.port}.{d.spi_device} (DC GPIO{d.dc_pin}, RST GPIO{d.reset_pin})"
        lines.append(f"display {d.label}: {d.driver} {d.width}x{d.height} rotate {d.rotate}, {at}")
    if config.camera:
        c = config.camera
        src = {"picamera2": f"Pi camera {c.size[0]}x{c.size[1]} at {c.fps:g} fps",
               "usb": f"USB camera {c.index}", "file": f"video file {c.path}"}[c.kind]
        lines.append(f"camera: {src}")
    if config.buzzer_pin is not None:
        lines.append(f"buzzer: GPIO{config.buzzer_pin}")
    if k := config.kiosk:
        bots = f"; bots: {', '.join(k.bots)}" if k.bots else ""
        lines.append(f"kiosk: {', '.join(k.games)}; big screen {k.web_bind}:{k.web_port}, "
                     f"admin PIN {'set' if k.admin_pin else 'none (read-only page)'}{bots}")
    if lg := config.league:
        c = lg.credentials
        proof = ("client certificate" if c.cert_file else
                 f"user {c.username}" if c.username else "no login")
        lines.append(f"league: table {lg.table} on {lg.broker.url} ({proof})")
    lines.append("config OK")
    return lines
