"""The big-screen page: one HTML document that polls ``/state.json`` and shows the game.

Kept in a module (not a package data file) so every way of installing the referee serves it.
It writes every value with ``textContent``: texts come from player names and engines, and a
name must never become markup on the screen. The admin form is closed by default and does
nothing without the PIN, which the server checks.
"""

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Tabletop Companion</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { background: #111; color: #eee; font: 24px/1.35 sans-serif; margin: 1.2em; }
  h1 { margin: 0 0 .3em; font-size: 2.2em; }
  #turn { font-size: 1.6em; color: #ffd54f; }
  #score { font-size: 1.4em; }
  #announcement { font-size: 1.4em; background: #ffd54f; color: #111; padding: .1em .4em; }
  #announcement:empty, #proposal:empty { display: none; }
  #proposal { font-size: 1.3em; color: #80d8ff; }
  pre#board { font: 20px/1.15 monospace; background: #222; padding: .5em; display: inline-block; }
  .cols { display: flex; gap: 2em; align-items: flex-start; flex-wrap: wrap; }
  #log li, #standings li { margin: .1em 0; }
  #camera { max-width: 48vw; border: 2px solid #444; }
  #camera[hidden] { display: none; }
  #admin { margin-top: 2em; font-size: 16px; color: #888; }
  #stale { color: #ff8a80; }
</style>
</head>
<body>
<h1 id="title">Tabletop Companion</h1>
<div id="turn"></div>
<div id="score"></div>
<div id="announcement"></div>
<div id="proposal"></div>
<div class="cols">
  <pre id="board"></pre>
  <img id="camera" alt="the table seen by the camera, with the judge's calls" hidden>
  <div>
    <h2>last calls</h2><ol id="log"></ol>
    <h2>tonight</h2><ol id="standings"></ol>
  </div>
</div>
<div id="stale"></div>
<details id="admin"><summary>admin</summary>
  <form id="admin-form">
    <label>PIN <input id="pin" type="password" inputmode="numeric" autocomplete="off"></label>
    <button id="abandon" type="submit">abandon the game</button>
    <span id="admin-reply"></span>
  </form>
</details>
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
function show(s) {
  $("title").textContent = s.title || "Tabletop Companion";
  if (s.phase === "play" || s.phase === "confirm") {
    $("turn").textContent = s.phase === "confirm" ? "abandon this game? (asked on the panels)" : s.turn;
    $("score").textContent = s.score || "";
    $("board").textContent = s.board || "";
  } else {
    $("turn").textContent = s.result ? s.result : "";
    $("score").textContent = "";
    $("board").textContent = (s.screen || []).join("\\n");
  }
  $("announcement").textContent = s.announcement || "";
  $("proposal").textContent = s.proposal ? "judge: " + s.proposal + "?" : "";
  fill($("log"), (s.log || []).slice().reverse());
  fill($("standings"), (s.standings || []).map(([name, wins]) => name + ": " + wins));
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
"""
