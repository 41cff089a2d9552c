import socket

import pytest

from engines.core import registry


@pytest.fixture(autouse=True)
def pig_registered(monkeypatch):
    """The test game Pig (tests/referee/pig.py) is known to the registry for these tests."""
    monkeypatch.setitem(registry.GAMES, "pig", "tests.referee.pig:Pig")




@pytest.fixture
def systemd_socket(tmp_path):
    """The datagram socket systemd listens on for sd_notify, and its path (``NOTIFY_SOCKET``)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(2.0)
    yield sock, str(tmp_path / "notify")
    sock.close()


def received(sock) -> list[str]:
    """Every datagram waiting on the socket."""
    out = []
    sock.settimeout(0.05)
    while True:
        try:
            out.append(sock.recv(4096).decode())
        except TimeoutError:
            return out
