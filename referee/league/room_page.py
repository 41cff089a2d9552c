"""The room's big screen: every table's live status and the night's standings on one page.

Served by the standard library's http.server with the table big screen's limits (bounded
clients and request time: ``referee.web.limits``) and its admin PIN guard (``referee.web.pins``).
The page long-polls ``/room.json?after=VERSION``: the server answers as soon as anything changed,
so a call at a table is on the room's screen within the broker's delivery time. Without the
admin PIN the page is read-only; with it, a result can be struck from the standings (a game
played by mistake) and restored.
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from referee.web.limits import MAX_CLIENTS, BoundedHTTPServer, PageHandler
from referee.web.pins import PinGuard

from .room import Room

LONG_POLL_SECONDS = 8.0
"""How long ``/room.json?after=`` waits for a change (under the request limit of 10 s)."""
MAX_BODY = 4096

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>League night</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  html, body { height: 100%; margin: 0; overflow: hidden; }
  body { background: #111; color: #eee; font: 2.2vh/1.25 sans-serif; display: grid;
         grid-template-columns: minmax(0, 1.6fr) minmax(0, 1fr); gap: 2vw; padding: 1.5vh 2vw;
         box-sizing: border-box; }
  h1, h2 { font-weight: normal; color: #9e9e9e; margin: 0 0 1vh; text-transform: uppercase;
           letter-spacing: .1em; font-size: 2.6vh; }
  #tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(22vw, 1fr));
            gap: 1.2vh 1vw; align-content: start; overflow: hidden; }
  .table { background: #222; border-radius: .8vh; padding: .8vh 1vw; border-left: .6vh solid #4caf50; }
  .table.offline { border-left-color: #ff8a80; opacity: .75; }
  .table .name { font-size: 3vh; font-weight: bold; }
  .table .game { color: #9e9e9e; }
  .table .turn { color: #ffd54f; font-size: 2.8vh; }
  .table .score { font-size: 2.6vh; }
  .table ul { list-style: none; margin: .4vh 0 0; padding: 0; color: #bdbdbd; font-size: 2vh; }
  #standings { width: 100%; border-collapse: collapse; font-size: 3vh; }
  #standings th { color: #9e9e9e; font-weight: normal; text-align: right; }
  #standings td { padding: .3vh .5vw; text-align: right; border-bottom: 1px solid #333; }
  #standings td.who, #standings th.who { text-align: left; }
  #standings tr:first-child td { color: #ffd54f; }
  #results { list-style: none; margin: 1vh 0; padding: 0; font-size: 2vh; color: #bdbdbd; }
  #results li.voided { text-decoration: line-through; color: #777; }
  #admin { font-size: 1.8vh; color: #777; }
  #admin button, #results button { font-size: 1.8vh; }
  #stale { color: #ff8a80; }
</style>
</head>
<body>
<section><h1>Tables</h1><div id="tables"></div></section>
<section>
  <h2>Standings</h2>
  <table id="standings"><thead><tr><th class="who">player</th><th>played</th><th>won</th>
    <th>drawn</th><th>points</th></tr></thead><tbody></tbody></table>
  <h2>Results</h2><ul id="results"></ul>
  <details id="admin"><summary>admin</summary>
    <input id="pin" type="password" inputmode="numeric" placeholder="PIN" autocomplete="off">
    <span id="said"></span></details>
  <div id="stale"></div>
</section>
<script>
"use strict";
let version = -1;
let last = null;
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function admin(action, r) {
  fetch("/admin", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({pin: document.getElementById("pin").value, action: action,
                          table: r.table, game: r.game})})
    .then(resp => resp.json()).then(j => { document.getElementById("said").textContent = j.message; });
}
function show(s) {
  last = s;
  const tables = document.getElementById("tables");
  tables.replaceChildren(...s.tables.map(t => {
    const card = el("div", "table" + (t.online ? "" : " offline"));
    card.dataset.table = t.name;
    card.append(el("div", "name", t.name + (t.online ? "" : " (offline)")),
                el("div", "game", t.title || "no game yet"),
                el("div", "turn", t.result || t.turn || ""),
                el("div", "score", t.scores.map(p => p[0] + " " + p[1]).join("  ")));
    const calls = el("ul");
    calls.append(...t.calls.map(c => el("li", "", c)));
    card.append(calls);
    return card;
  }));
  const body = document.querySelector("#standings tbody");
  body.replaceChildren(...s.players.map(p => {
    const row = el("tr");
    row.append(el("td", "who", p.name), el("td", "", p.played), el("td", "", p.won),
               el("td", "", p.drawn), el("td", "", p.points));
    return row;
  }));
  const open = document.getElementById("admin").open;
  const results = document.getElementById("results");
  results.replaceChildren(...s.results.slice(-8).reverse().map(r => {
    const li = el("li", r.voided ? "voided" : "", r.table + ": " + r.text);
    if (open) {
      const b = el("button", "", r.voided ? "restore" : "strike");
      b.onclick = () => admin(r.voided ? "restore" : "void", r);
      li.append(" ", b);
    }
    return li;
  }));
  document.getElementById("stale").textContent = s.broker ? "" : "broker not reachable";
}
async function poll() {
  for (;;) {
    try {
      const resp = await fetch("/room.json?after=" + version, {cache: "no-store"});
      const s = await resp.json();
      version = s.version;
      show(s);
    } catch (e) {
      document.getElementById("stale").textContent = "room server not reachable";
      await new Promise(r => setTimeout(r, 1000));
    }
  }
}
document.getElementById("admin").addEventListener("toggle", () => { if (last) show(last); });
poll();
</script>
</body>
</html>
"""


class RoomPage:
    """Serves the room's page and ``/room.json``; POST ``/admin`` strikes or restores a result."""

    def __init__(self, room: Room, admin_pin: str | None = None, bind: str = "127.0.0.1",
                 port: int = 8090):
        self.room = room
        self.pins = PinGuard(admin_pin)
        self.closed = threading.Event()
        self.httpd = BoundedHTTPServer((bind, port), _handler(self), MAX_CLIENTS, name="room screen")

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def serve(self) -> None:
        self.httpd.serve_forever()

    def close(self) -> None:
        self.closed.set()  # a long poll still waiting must not read the room once it is closed
        self.httpd.shutdown()
        self.httpd.server_close()


def _handler(page: RoomPage) -> type[BaseHTTPRequestHandler]:
    class Handler(PageHandler):
        server_version = "TabletopRoom"

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            url = urlsplit(self.path)
            if url.path in ("/", "/index.html"):
                return self._send(HTTPStatus.OK, PAGE.encode(), "text/html; charset=utf-8")
            if url.path != "/room.json":
                return self._json(HTTPStatus.NOT_FOUND, {"message": f"no page {url.path}"})
            after = parse_qs(url.query).get("after", [""])[0]
            if after.lstrip("-").isdigit():
                page.room.wait(int(after), LONG_POLL_SECONDS)
            if page.closed.is_set():  # the page has stopped; its client is gone or will retry
                self.close_connection = True
                return
            self._json(HTTPStatus.OK, page.room.snapshot())

        def do_POST(self) -> None:  # noqa: N802
            if self.path != "/admin":
                return self._json(HTTPStatus.NOT_FOUND, {"message": f"no action at {self.path}"})
            length = self.headers.get("Content-Length", "")
            if not (length.isascii() and length.isdigit() and 0 < int(length) <= MAX_BODY):
                return self._json(HTTPStatus.BAD_REQUEST,
                                  {"message": f"an action is a JSON object of 1 to {MAX_BODY} bytes"})
            try:
                body = json.loads(self.rfile.read(int(length)))
            except (ValueError, RecursionError, TimeoutError):
                return self._json(HTTPStatus.BAD_REQUEST, {"message": "the body is not JSON"})
            if not isinstance(body, dict):
                return self._json(HTTPStatus.BAD_REQUEST, {"message": "an action is a JSON object"})
            status, message = page.pins.check(self.client_address[0], body.get("pin"))
            if status != HTTPStatus.ACCEPTED:
                return self._json(status, {"message": message})
            action = body.get("action")
            if action not in ("void", "restore"):
                return self._json(HTTPStatus.BAD_REQUEST, {"message": f"unknown action {action!r}"})
            if not page.room.store.void(str(body.get("table")), str(body.get("game")),
                                        action == "void"):
                return self._json(HTTPStatus.NOT_FOUND, {"message": "no such result"})
            page.room.bump()
            self._json(HTTPStatus.ACCEPTED, {"message": f"{action}: {body.get('table')} "
                                                        f"{body.get('game')}"})

        def _refuse(self) -> None:
            self._json(HTTPStatus.METHOD_NOT_ALLOWED, {"message": "the room page is read-only"})

        do_PUT = do_DELETE = do_PATCH = _refuse  # noqa: N815

    return Handler
