"""The big-screen page: a scoreboard for the room, polling ``/state.json``.

Read from across a room: whose turn in the largest letters, the scores in boxes, the board
drawn (``/board.svg``) or the game's facts, and the last calls in plain words, newest first.
Everything is sized in viewport units inside a grid of the window's height, so nothing
scrolls on a 1280x800 or a 1920x1080 screen; the list of calls is cut at the bottom, where the
oldest are. Kept in a module (not a package data file) so every way of installing the referee
serves it. It writes every value with ``textContent``: texts come from player names and
engines, and a name must never become markup on the screen. The admin form is closed by
default and does nothing without the PIN, which the server checks.
"""

import json

from .board_svg import SEAT_COLOURS

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Tabletop Companion</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  html, body { height: 100%; margin: 0; overflow: hidden; }
  body { background: #111; color: #eee; font: 2.6vh/1.25 sans-serif; display: grid;
         grid-template-rows: auto minmax(0, 1fr) auto; }
  header { padding: 1.5vh 2.5vw 1vh; }
  #title { margin: 0; font-size: 3.2vh; font-weight: normal; color: #9e9e9e; }
  #turn { font-size: 7vh; font-weight: bold; color: #ffd54f; line-height: 1.1; }
  #announcement { font-size: 3.8vh; background: #ffd54f; color: #111; padding: .3vh 1vw;
                  margin-top: 1vh; border-radius: .6vh; }
  #proposal { font-size: 3.6vh; color: #80d8ff; margin-top: .6vh; }
  #announcement:empty, #proposal:empty, #facts:empty, #screen:empty, #score:empty { display: none; }
  main { display: grid; grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr); gap: 2.5vw;
         padding: 0 2.5vw; min-height: 0; }
  #stage { display: flex; flex-direction: column; gap: 1.5vh; min-height: 0; overflow: hidden; }
  #board { flex: 1 1 0; min-height: 0; width: 100%; object-fit: contain; }
  #board[hidden], #camera[hidden], #tonight[hidden], #last-calls[hidden] {
    display: none; }
  #facts { list-style: none; margin: 0; padding: 0; font-size: 5vh; }
  #facts li { padding: .6vh 0; border-bottom: 1px solid #333; }
  #screen { margin: 0; font: 4vh/1.3 sans-serif; white-space: pre-wrap; }
  #camera { flex: 1 1 0; min-height: 0; width: 100%; object-fit: contain; }
  aside { display: flex; flex-direction: column; min-height: 0; overflow: hidden; }
  #score { display: flex; flex-wrap: wrap; gap: 1vh 1vw; margin-bottom: 1.5vh; }
  .seat { background: #222; border-radius: .8vh; padding: .5vh 1.2vw; text-align: center;
          border-top: .8vh solid #222; }
  .seat.mover { box-shadow: inset 0 0 0 .4vh #ffd54f; }
  .seat .name { display: block; font-size: 2.8vh; color: #bbb; }
  .seat .value { display: block; font-size: 6vh; font-weight: bold; line-height: 1.05; }
  h2 { font-size: 2.6vh; font-weight: normal; color: #9e9e9e; margin: .8vh 0 .4vh;
       text-transform: uppercase; letter-spacing: .1em; }
  #calls { flex: 1 1 0; min-height: 0; overflow: hidden; list-style: none; margin: 0; padding: 0; }
  #calls li { font-size: 3.2vh; padding: .5vh 0; border-bottom: 1px solid #2a2a2a; color: #bdbdbd; }
  #calls li:first-child { color: #fff; font-size: 3.8vh; }
  #standings { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap;
               gap: .5vh 2vw; font-size: 3vh; }
  footer { display: flex; gap: 2vw; align-items: baseline; padding: .5vh 2.5vw 1vh;
           font-size: 1.8vh; color: #777; }
  #stale { color: #ff8a80; }
</style>
</head>
<body data-colours='__SEAT_COLOURS__'>
<header>
  <h1 id="title">Tabletop Companion</h1>
  <div id="turn"></div>
  <div id="announcement"></div>
  <div id="proposal"></div>
</header>
<main>
  <section id="stage">
    <img id="board" alt="the board" hidden>
    <ul id="facts"></ul>
    <pre id="screen"></pre>
    <img id="camera" alt="the table seen by the camera, with the judge's calls" hidden>
  </section>
  <aside>
    <div id="score"></div>
    <h2 id="last-calls">last calls</h2><ol id="calls"></ol>
    <h2 id="tonight">tonight</h2><ol id="standings"></ol>
  </aside>
</main>
<footer>
  <details id="admin"><summary>admin</summary>
    <form id="admin-form">
      <label>PIN <input id="pin" type="password" inputmode="numeric" autocomplete="off"></label>
      <button id="abandon" type="submit">abandon the game</button>
      <span id="admin-reply"></span>
    </form>
  </details>
  <div id="stale"></div>
</footer>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
function fill(list, items) {
  list.replaceChildren(...items.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
}
function seats(pairs, mover) {
  $("score").replaceChildren(...pairs.map(([name, value], i) => {
    const box = document.createElement("div");
    box.className = i === mover ? "seat mover" : "seat";
    box.style.borderTopColor = COLOURS[i % COLOURS.length];  // the seat's colour on the board
    for (const [cls, text] of [["name", name], ["value", value]]) {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text;
      box.append(span);
    }
    return box;
  }));
}
const COLOURS = JSON.parse(document.body.dataset.colours);
let drawn = null;
function show(s) {
  const playing = s.phase === "play" || s.phase === "confirm";
  const room = playing ? null : (s.room || {});  // outside play: what the table is doing
  $("title").textContent = (playing ? s.title : room.heading) || "Tabletop Companion";
  if (playing) {
    $("turn").textContent = s.phase === "confirm" ? "abandon this game? (asked on the panels)" : s.turn;
  } else {
    $("turn").textContent = room.headline || "";
  }
  seats(playing ? (s.scores || []) : [], s.mover);
  const board = $("board");
  if (playing && s.has_board) {
    if (drawn !== s.version) { board.src = "board.svg?v=" + s.version; drawn = s.version; }
    board.hidden = false;
  } else if (!board.hidden) {
    board.hidden = true;
    board.removeAttribute("src");
    drawn = null;
  }
  fill($("facts"), playing ? (s.facts || []) : []);
  const plain = playing && !s.has_board && !(s.facts || []).length;
  $("screen").textContent = playing ? (plain ? s.board || "" : "") : (room.lines || []).join("\\n");
  $("announcement").textContent = s.announcement || "";
  $("proposal").textContent = s.proposal ? "judge: " + s.proposal + "?" : "";
  fill($("calls"), (s.calls || []).slice().reverse());
  $("last-calls").hidden = !(s.calls || []).length;
  fill($("standings"), (s.standings || []).map(([name, wins]) => name + ": " + wins));
  $("tonight").hidden = !(s.standings || []).length;
  const cam = $("camera");
  if (s.camera && cam.hidden) { cam.src = "camera.mjpeg"; cam.hidden = false; }
  if (!s.camera && !cam.hidden) { cam.removeAttribute("src"); cam.hidden = true; }
  document.body.dataset.phase = s.phase;
  document.body.dataset.version = s.version;
}
async function poll() {
  try {
    const r = await fetch("state.json", {cache: "no-store"});
    show(await r.json());
    $("stale").textContent = "";
  } catch (e) {
    $("stale").textContent = "waiting for the referee...";
  }
  setTimeout(poll, 500);
}
$("admin-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const r = await fetch("action", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({action: "abandon", pin: $("pin").value})});
  $("admin-reply").textContent = (await r.json()).message;
  $("pin").value = "";
});
poll();
</script>
</body>
</html>
""".replace("__SEAT_COLOURS__", json.dumps(SEAT_COLOURS))
