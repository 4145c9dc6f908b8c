/// The player's page: HTML, CSS and script in one file, with places for
/// the data and the transcript. Kept apart from the Swift that fills it.
enum WebPlayerPage {
    static let template = #"""
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>bulwark demo</title>
<style>
:root{--bg:#1b1e22;--fg:#d0d3d4;--accent:#61afef}
body{margin:0;background:#111315;color:#e8e8e8;font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
main{display:grid;grid-template-columns:minmax(0,1fr) 17rem;gap:1rem;padding:1rem;max-width:1280px;margin:auto;box-sizing:border-box}
@media (max-width:800px){main{grid-template-columns:1fr}#screen{overflow-x:auto}#frame{font-size:9px}}
h1{font-size:1.3rem;margin:.2rem 0 .6rem}
#screen{background:var(--bg);color:var(--fg);border-radius:8px;padding:.6rem;overflow:hidden}
#frame{margin:0;font:clamp(5px,1.1vw,15px)/1.17 "DejaVu Sans Mono",Menlo,Consolas,"Liberation Mono",monospace;white-space:pre}
#caption{min-height:2.6em;font-size:1.1rem;margin:.6rem 0}
#controls{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
button,select{background:#2a2e33;color:#e8e8e8;border:1px solid #3a3f45;border-radius:6px;padding:.35rem .7rem;font-size:1rem}
#progress{flex:1;height:.5rem;background:#2a2e33;border-radius:4px;overflow:hidden;min-width:8rem}
#bar{height:100%;width:0;background:var(--accent)}
nav{max-height:80vh;overflow:auto}
nav h2{font-size:1rem;margin:.2rem 0}
nav ol{padding-left:1.2rem;margin:.2rem 0}
nav a{color:#e8e8e8;text-decoration:none}
nav a.current{color:var(--accent);font-weight:bold}
nav li li{font-size:.82rem;opacity:.85}
#transcript{max-width:1280px;margin:1rem auto;padding:0 1rem;box-sizing:border-box}
#transcript pre{font-size:11px;overflow:auto}
</style></head>
<body>
<main>
 <div>
  <h1 id="title">bulwark demo</h1>
  <div id="screen"><pre id="frame" role="img"></pre></div>
  <p id="caption" aria-live="polite"></p>
  <div id="controls">
   <button id="prev" title="Previous step (←)">◀</button>
   <button id="play" title="Play or pause (Space)">Play</button>
   <button id="next" title="Next step (→)">▶</button>
   <label>Speed <select id="speed"><option value="0.5">0.5×</option><option value="1" selected>1×</option><option value="2">2×</option><option value="4">4×</option></select></label>
   <div id="progress" aria-label="progress"><div id="bar"></div></div>
   <span id="position"></span>
  </div>
 </div>
 <nav aria-label="Chapters"><h2>Chapters</h2><ol id="chapters"></ol></nav>
</main>
<section id="transcript"><h2>Every frame as text</h2>
@@TRANSCRIPT@@
</section>
<script type="application/json" id="data">@@DATA@@</script>
<script>
(function () {
"use strict";
var data = JSON.parse(document.getElementById("data").textContent);
var steps = [];
data.chapters.forEach(function (chapter, c) { chapter.frames.forEach(function (_, f) { steps.push({c: c, f: f}); }); });
var at = 0, timer = null, playing = false, links = [];
var frame = document.getElementById("frame"), caption = document.getElementById("caption"), title = document.getElementById("title");
var bar = document.getElementById("bar"), position = document.getElementById("position"), play = document.getElementById("play");
var list = document.getElementById("chapters"), speed = document.getElementById("speed");
data.chapters.forEach(function (chapter) {
  var item = document.createElement("li"), link = document.createElement("a"), sub = document.createElement("ol");
  link.href = "#" + chapter.name + "/1";
  link.textContent = chapter.title;
  item.appendChild(link);
  chapter.frames.forEach(function (shot, f) {
    var step = document.createElement("li"), stepLink = document.createElement("a");
    stepLink.href = "#" + chapter.name + "/" + (f + 1);
    stepLink.textContent = shot.caption || "The end";
    step.appendChild(stepLink);
    sub.appendChild(step);
    links.push(stepLink);
  });
  item.appendChild(sub);
  list.appendChild(item);
});
function draw() {
  var s = steps[at], chapter = data.chapters[s.c], shot = chapter.frames[s.f];
  frame.textContent = "";
  shot.rows.forEach(function (runs, y) {
    runs.forEach(function (run) {
      var span = document.createElement("span");
      span.className = "s" + run[1];
      span.textContent = run[0];
      frame.appendChild(span);
    });
    if (y < shot.rows.length - 1) { frame.appendChild(document.createTextNode("\n")); }
  });
  frame.setAttribute("aria-label", shot.text);
  caption.textContent = shot.caption || "";
  title.textContent = chapter.title;
  bar.style.width = ((at + 1) / steps.length * 100) + "%";
  position.textContent = (at + 1) + " / " + steps.length;
  links.forEach(function (link, i) { link.className = i === at ? "current" : ""; });
  var nav = list.parentNode, current = links[at];
  if (current && nav.scrollHeight > nav.clientHeight) { nav.scrollTop = Math.max(0, current.offsetTop - nav.offsetTop - nav.clientHeight / 3); }
  var hash = "#" + chapter.name + "/" + (s.f + 1);
  if (location.hash !== hash) { history.replaceState(null, "", hash); }
}
function go(i) {
  at = Math.max(0, Math.min(steps.length - 1, i));
  draw();
  // When the first frame was on the screen, from the page's navigation start (the README's figure).
  if (!document.documentElement.dataset.firstFrameMs) { document.documentElement.dataset.firstFrameMs = String(Math.round(performance.now())); }
  // The screen's drawn size in CSS pixels, beside the window's: a test checks it fits a 1280x720 slide.
  var box = frame.getBoundingClientRect();
  document.documentElement.dataset.frameBox = Math.round(box.right) + "x" + Math.round(box.bottom) + " in " + window.innerWidth + "x" + window.innerHeight;
}
function schedule() {
  clearTimeout(timer);
  if (!playing) { return; }
  timer = setTimeout(function () {
    if (at < steps.length - 1) { go(at + 1); schedule(); } else { toggle(false); }
  }, 3000 / (parseFloat(speed.value) || 1));
}
function toggle(on) {
  playing = on === undefined ? !playing : on;
  play.textContent = playing ? "Pause" : "Play";
  schedule();
}
function fromHash() {
  var match = /^#([^/]+)\/(\d+)$/.exec(location.hash);
  if (!match) { return false; }
  for (var i = 0; i < steps.length; i++) {
    if (data.chapters[steps[i].c].name === match[1] && steps[i].f === parseInt(match[2], 10) - 1) { go(i); return true; }
  }
  return false;
}
document.getElementById("prev").onclick = function () { go(at - 1); schedule(); };
document.getElementById("next").onclick = function () { go(at + 1); schedule(); };
play.onclick = function () { toggle(); };
speed.onchange = schedule;
window.addEventListener("hashchange", fromHash);
document.addEventListener("keydown", function (e) {
  if (e.target.tagName === "SELECT") { return; }
  if (e.key === " ") { e.preventDefault(); toggle(); }
  else if (e.key === "ArrowRight") { go(at + 1); schedule(); }
  else if (e.key === "ArrowLeft") { go(at - 1); schedule(); }
  else if (/^[1-9]$/.test(e.key)) {
    var c = parseInt(e.key, 10) - 1;
    for (var i = 0; i < steps.length; i++) { if (steps[i].c === c) { go(i); schedule(); break; } }
  }
});
var sheet = document.createElement("style");
sheet.textContent = data.styles.map(function (rule, i) { return "#frame .s" + i + "{" + rule + "}"; }).join("\n");
document.head.appendChild(sheet);
if (!fromHash()) { go(0); }
})();
</script>
</body></html>
"""#
}
