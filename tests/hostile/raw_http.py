"""Raw bytes to an HTTP server on a real socket, the way a hostile client would send them."""

from __future__ import annotations

import json
import socket


def exchange(address: tuple[str, int], data: bytes, *, source: str = "127.0.0.1",
             timeout: float = 5.0) -> bytes:
    """Send ``data`` from the loopback address ``source``, then read until the server closes."""
    with socket.create_connection(address, timeout=timeout, source_address=(source, 0)) as s:
        try:
            s.sendall(data)
        except OSError:
            pass  # the server answered and closed before taking it all (a huge header)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def reply(raw: bytes) -> tuple[int, str]:
    """The status of a raw reply (0 without a status line) and its message: the JSON "message",
    else the status line's reason and the body's text."""
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0]
    if not status_line.startswith(b"HTTP/"):
        return 0, raw.decode("utf-8", "replace")
    status = int(status_line.split(b" ", 2)[1])
    try:
        return status, json.loads(body)["message"]
    except (ValueError, KeyError, TypeError):
        return status, (status_line + b"\n" + body).decode("utf-8", "replace")


def post(path: str, body: bytes, length: int | None = None, extra: bytes = b"") -> bytes:
    """A POST request's bytes; ``length`` overrides the honest Content-Length."""
    n = len(body) if length is None else length
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {n}\r\n").encode() + extra + b"\r\n" + body
