"""A real Eclipse Mosquitto for the tests, on 127.0.0.1 and a free port, that can be killed and
started again on the same port (a broker that crashes mid-night); and a TCP relay in front of
it that can cut one table off and let it back (a table whose network drops)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
SHIPPED = Path(__file__).parents[2] / "systemd" / "mosquitto-league.conf"
TUNING_START = "# tuning"


def shipped_tuning() -> str:
    """The lines of the shipped broker config from its "tuning" comment on: the tests' broker
    behaves as the night's (its listener, passwords and files are the test's own)."""
    text = SHIPPED.read_text()
    return text[text.index(TUNING_START):]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


class Mosquitto:
    """``extra`` lines go into its config (a password file, an ACL)."""

    def __init__(self, folder: Path, extra: str = "allow_anonymous true\n"):
        self.port = free_port()
        self.folder = folder
        self.conf = folder / "mosquitto.conf"
        # as root, mosquitto would switch to its own user, which cannot read pytest's folder
        user = "user root\n" if os.geteuid() == 0 else ""
        self.conf.write_text(f"listener {self.port} 127.0.0.1\npersistence false\n{user}{extra}"
                             f"{shipped_tuning()}")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> Mosquitto:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL,
                                     stderr=open(self.folder / "mosquitto.log", "ab"))
        wait_listening(self.port)
        return self

    def kill(self) -> None:
        """SIGKILL: the broker dies as in a crash, keeping nothing (persistence is off)."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Relay:
    """Forwards 127.0.0.1:``port`` to the broker; ``cut()`` drops every connection and refuses
    new ones until ``restore()``."""

    def __init__(self, target_port: int):
        self.target = target_port
        self.port = free_port()
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        self.server: socket.socket | None = None
        self.restore()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def restore(self) -> None:
        self.server = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        threading.Thread(target=self._accept, args=(self.server,), daemon=True).start()

    def cut(self) -> None:
        server, self.server = self.server, None
        if server:  # shutdown wakes the accepting thread (close alone leaves it listening)
            try:
                server.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            server.close()
        with self.lock:
            for c in self.conns:
                try:
                    c.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                c.close()
            self.conns.clear()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
