"""A league over TLS with client certificates (the commented lines of the shipped broker config):
each table proves who it is with its certificate, whose name is its username for the ACL; a
client without a certificate the league's CA signed is refused."""

from __future__ import annotations

import subprocess
from pathlib import Path

from referee.config import parse_config
from referee.journal import Journal
from referee.league.config import Credentials, LeagueConfig, parse_broker
from referee.league.link import LeagueLink
from referee.league.room import Room
from referee.league.room_store import RoomStore
from referee.session import Session

from .mosquitto import Mosquitto
from .test_link import until
from .test_security import ACL


def openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def certificate(folder: Path, name: str, ca: str, ip: bool = False) -> tuple[str, str]:
    """A key and a certificate for ``name`` signed by the CA ``ca`` (its name in ``folder``)."""
    key, csr, crt = (str(folder / f"{name}.{ext}") for ext in ("key", "csr", "crt"))
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-subj", f"/CN={name}", "-out", csr)
    ext = folder / f"{name}.ext"
    ext.write_text("subjectAltName=IP:127.0.0.1\n" if ip else "basicConstraints=CA:FALSE\n")
    openssl("x509", "-req", "-in", csr, "-CA", str(folder / f"{ca}.crt"), "-CAkey",
            str(folder / f"{ca}.key"), "-CAcreateserial", "-days", "2", "-out", crt,
            "-extfile", str(ext))
    return crt, key


def test_tables_and_room_over_tls_with_client_certificates(tmp_path):
    pki = tmp_path / "pki"
    pki.mkdir()
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(pki / "ca.key"),
            "-subj", "/CN=league CA", "-days", "2", "-out", str(pki / "ca.crt"))
    server = certificate(pki, "broker", "ca", ip=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(pki / "rogue.key"),
            "-subj", "/CN=rogue CA", "-days", "2", "-out", str(pki / "rogue.crt"))
    broker = Mosquitto(tmp_path, f"cafile {pki / 'ca.crt'}\ncertfile {server[0]}\nkeyfile {server[1]}\n"
                                 "require_certificate true\nuse_identity_as_username true\n"
                                 f"allow_anonymous false\nacl_file {ACL}\n").start()
    url = f"mqtts://127.0.0.1:{broker.port}"
    ca = str(pki / "ca.crt")
    room_crt, room_key = certificate(pki, "room", "ca")
    store = RoomStore(tmp_path / "room.sqlite")
    room = Room(store, parse_broker(url), {}, Credentials(ca_file=ca, cert_file=room_crt,
                                                         key_file=room_key)).start()
    t1_crt, t1_key = certificate(pki, "t1", "ca")
    rogue_crt, rogue_key = certificate(pki, "t2", "rogue")  # right name, wrong CA
    # the table's section, checked as the config checker checks it
    league = parse_config({"seats": [{"name": "ann"}, {"name": "bob"}], "league": {
        "broker": url, "table": "t1", "ca_file": ca, "cert_file": t1_crt, "key_file": t1_key}}).league
    journals, links = [], []
    try:
        rogue_warnings: list[str] = []
        for config, warn in ((league, None), (LeagueConfig(parse_broker(url), "t2", Credentials(
                ca_file=ca, cert_file=rogue_crt, key_file=rogue_key)), rogue_warnings.append)):
            journal = Journal(tmp_path / f"{config.table}.sqlite")
            link = LeagueLink(config, journal.path, **({"warn": warn} if warn else {}))
            session = Session.open(journal, "stoneball", ["ann", "bob"], seed=7, bots=[0, 1],
                                   echo=link.wake)
            link.start()
            session.advance()
            journals.append(journal)
            links.append(link)
        assert until(lambda: len(store.results()) == 1, 20)
        assert until(lambda: not links[1].connected.is_set() and links[1].tried.is_set())
        assert [r["table"] for r in store.results()] == ["t1"]
        assert [t["name"] for t in store.tables()] == ["t1"]
        assert not links[1].connected.is_set()
        assert rogue_warnings and "t2" in rogue_warnings[0]  # the refused table says so
    finally:
        for link in links:
            link.close(flush_seconds=1)
        for journal in journals:
            journal.close()
        room.close()
        broker.kill()
