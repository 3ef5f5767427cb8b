"""A self-contained HTML page that replays matches in a browser.

``render_html(timelines, title=..., start=...)`` returns one HTML document:
inline CSS and JavaScript, no network access, no external fonts or scripts.
The data is the JSON of ``MatchTimeline.as_json()`` (docs/replay.md),
embedded in a ``<script type="application/json">`` element; the script draws
the rows and collections of the current move as coloured cards. A slider,
buttons and the arrow keys step through the moves; a menu switches games.
The page opens from disk and fits a phone's screen.

For programs (and the browser test) the page exposes what it shows as
attributes: ``<body data-game="G" data-move="M">``, every card carries
``data-card``, every row ``data-row``, every player panel ``data-player``
and ``data-score``.
"""

from __future__ import annotations

import html
import json
from typing import Any

from ..core.cards import LAST_ROUND, SHORT_LABELS
from ..report.timeline import MatchTimeline

__all__ = ["embed_json", "render_html"]

#: Short labels drawn on cards in a row (full names are in the tooltip).
CARD_LABELS: dict[str, str] = {k: v for k, v in SHORT_LABELS.items() if k != LAST_ROUND}

#: Card colours: (background, text).
CARD_COLOURS: dict[str, tuple[str, str]] = {
    "orange": ("#f08a24", "#000"),
    "blue": ("#1f5fbf", "#fff"),
    "brown": ("#7a4a21", "#fff"),
    "yellow": ("#f5d327", "#000"),
    "grey": ("#9b9b9b", "#000"),
    "green": ("#23883a", "#fff"),
    "red": ("#d12a2a", "#fff"),
    "purple": ("#7440a6", "#fff"),
    "joker": ("#ffffff", "#000"),
    "golden_joker": ("#e8b923", "#000"),
    "plus2": ("#333333", "#fff"),
}


def embed_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` in the text."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _card_css() -> str:
    rules = []
    for name, (bg, fg) in CARD_COLOURS.items():
        rules.append(f".k-{name}{{background:{bg};color:{fg}}}")
    return "\n".join(rules)


def render_html(
    timelines: list[MatchTimeline], *, title: str, start: dict[str, int] | None = None
) -> str:
    """The viewer page for ``timelines`` (every match of one file).

    ``start``: ``{"match": K, "game": G, "move": M}`` (from 1, 1, 0; ``move``
    -1 for the end) to open at; by default the first game's first move. A
    ``#m=K&g=G&s=M`` fragment in the page's address overrides it.
    """
    data = {
        "title": title,
        "matches": [t.as_json() for t in timelines],
        "start": start,
        "labels": CARD_LABELS,
    }
    return (
        _PAGE.replace("%%TITLE%%", html.escape(f"Coloretto replay · {title}"))
        .replace("%%CARD_CSS%%", _card_css())
        .replace("%%CSS%%", _CSS)
        .replace("%%JS%%", _JS)
        .replace("%%DATA%%", embed_json(data))
    )


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>%%TITLE%%</title>
<style>
%%CSS%%
%%CARD_CSS%%
</style>
</head>
<body>
<header>
  <h1 id="title"></h1>
  <label class="pick">Game <select id="game" aria-label="game"></select></label>
</header>
<nav id="controls" aria-label="moves">
  <button id="first" type="button" title="first move (Home)" aria-label="first move">&laquo;</button>
  <button id="prev" type="button" title="previous move (&larr;)" aria-label="previous move">&lsaquo;</button>
  <input id="slider" type="range" min="0" max="0" value="0" aria-label="move">
  <button id="next" type="button" title="next move (&rarr;)" aria-label="next move">&rsaquo;</button>
  <button id="last" type="button" title="last move (End)" aria-label="last move">&raquo;</button>
  <span id="counter" aria-live="polite"></span>
</nav>
<p id="narrative" aria-live="polite"></p>
<p id="status"></p>
<p id="error" hidden></p>
<section id="table">
  <h2>Rows</h2>
  <div id="rows"></div>
  <p id="discarded" hidden></p>
</section>
<section>
  <h2>Players <span class="hint">score with the best assignment now</span></h2>
  <div id="players"></div>
</section>
<section id="final" hidden>
  <div id="game-scores"></div>
  <div id="match-scores"></div>
</section>
<footer>Keys: &larr; &rarr; step, Home End first and last move, [ ] or PgUp PgDn switch games.</footer>
<script type="application/json" id="replay-data">%%DATA%%</script>
<script>
%%JS%%
</script>
</body>
</html>
"""

_CSS = """
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0 auto;max-width:60rem;padding:.6rem .8rem 2rem;background:#f3efe6;color:#1d1d1d;
  font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",Arial,sans-serif}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1rem;justify-content:space-between}
h1{font-size:1.15rem;margin:.2rem 0;overflow-wrap:anywhere}
h2{font-size:1rem;margin:.8rem 0 .3rem}
.hint{font-weight:normal;color:#666;font-size:.85rem}
select,button{font:inherit}
select{padding:.3rem;max-width:100%}
#controls{display:flex;align-items:center;gap:.35rem;margin:.5rem 0;flex-wrap:wrap}
#controls button{min-width:2.75rem;min-height:2.75rem;font-size:1.3rem;border:1px solid #888;border-radius:.4rem;background:#fff;cursor:pointer}
#controls button:disabled{opacity:.4;cursor:default}
#slider{flex:1 1 8rem;min-width:6rem;height:2.2rem}
#counter{font-variant-numeric:tabular-nums;white-space:nowrap;font-weight:600}
#narrative{font-size:1.1rem;font-weight:600;background:#fff;border-left:.35rem solid #2b6cb0;padding:.45rem .6rem;margin:.4rem 0}
#status{margin:.3rem 0;color:#333}
.badge{display:inline-block;background:#b91c1c;color:#fff;border-radius:.3rem;padding:0 .35rem;font-weight:700}
#error{background:#fde8e8;border:1px solid #b91c1c;color:#7f1d1d;padding:.45rem .6rem;border-radius:.3rem;overflow-wrap:anywhere}
.row{display:flex;align-items:center;gap:.5rem;min-height:3.4rem;padding:.2rem .4rem;margin:.25rem 0;background:#276749;border-radius:.4rem;color:#fff}
.row.taken{background:#8aa597}
.rlabel{min-width:3.6rem;font-weight:700}
.rnote{font-style:italic}
.cards{display:flex;flex-wrap:wrap;gap:.3rem}
.card{display:inline-flex;align-items:center;justify-content:center;width:2.4rem;height:3.1rem;border-radius:.3rem;
  border:2px solid rgba(0,0,0,.55);font-weight:700;font-size:.9rem;box-shadow:0 1px 2px rgba(0,0,0,.35)}
.slot{display:inline-block;width:2.4rem;height:3.1rem;border-radius:.3rem;border:2px dashed rgba(255,255,255,.55)}
#players{display:grid;grid-template-columns:repeat(auto-fill,minmax(17rem,1fr));gap:.5rem}
.player{background:#fff;border:1px solid #bbb;border-radius:.5rem;padding:.4rem .55rem}
.player.next{border:3px solid #2b6cb0}
.phead{display:flex;justify-content:space-between;align-items:baseline;gap:.5rem}
.pname{font-weight:700;font-size:1.05rem;overflow-wrap:anywhere}
.took{font-weight:normal;color:#555;font-size:.85rem}
.score{font-size:1.5rem;font-weight:800;font-variant-numeric:tabular-nums}
.chips{display:flex;flex-wrap:wrap;gap:.3rem;margin:.3rem 0;min-height:2.6rem}
.chip{display:inline-flex;align-items:center;justify-content:center;min-width:2.2rem;height:2.6rem;padding:0 .3rem;border-radius:.3rem;
  border:2px solid rgba(0,0,0,.55);font-weight:800;font-size:1.05rem}
.k-joker{background:linear-gradient(135deg,#fff 0 30%,#f6d365 30% 45%,#7fd1ae 45% 60%,#8ec5fc 60% 75%,#fff 75%)!important}
.best{font-size:.85rem;color:#444}
.empty{color:#777;font-style:italic}
table.scores{border-collapse:collapse;margin:.3rem 0 .8rem;min-width:14rem}
table.scores th,table.scores td{padding:.25rem .6rem;border-bottom:1px solid #ccc;text-align:left}
table.scores td.num{text-align:right;font-variant-numeric:tabular-nums;font-weight:700}
tr.win td{background:#fff3bf}
footer{margin-top:1.2rem;color:#666;font-size:.85rem}
@media (max-width:30rem){
  body{font-size:15px;padding:.4rem}
  .card,.slot{width:2.1rem;height:2.8rem}
  #players{grid-template-columns:1fr}
}
"""

_JS = r"""
(function () {
  'use strict';
  var DATA = JSON.parse(document.getElementById('replay-data').textContent);
  var LABELS = DATA.labels;
  var WORDS = {joker: 'joker', golden_joker: 'golden joker', plus2: '+2'};
  var $ = function (id) { return document.getElementById(id); };
  var entries = [];  // every game of every match, in order
  DATA.matches.forEach(function (m, mi) {
    m.games.forEach(function (g) { entries.push({match: m, mi: mi, game: g}); });
  });
  var cur = {entry: 0, move: 0};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function word(card) { return WORDS[card] || card; }
  function plural(n, w) { return n + ' ' + w + (n === 1 ? '' : 's'); }
  function card(name) {
    var c = el('span', 'card k-' + name, LABELS[name] || name);
    c.dataset.card = name;
    c.title = word(name);
    return c;
  }
  function chip(name, n) {
    var special = name === 'joker' || name === 'golden_joker' || name === 'plus2';
    var c = el('span', 'chip k-' + name, special ? LABELS[name] + '\u00d7' + n : n);
    c.dataset.card = name;
    c.dataset.count = n;
    c.title = word(name) + ' \u00d7' + n;
    return c;
  }
  function entryLabel(e, i) {
    var g = e.game;
    var text = DATA.matches.length > 1 ? 'match ' + (e.mi + 1) + ' \u00b7 game ' + g.game : 'game ' + g.game;
    text += ' \u00b7 ' + plural(g.moves, 'move');
    if (g.error) text += ' \u00b7 error';
    else if (!g.complete) text += ' \u00b7 unfinished';
    return text;
  }

  function setup() {
    var title = DATA.matches.length === 1 && DATA.matches[0].match_id ? DATA.matches[0].match_id : DATA.title;
    $('title').textContent = title;
    var sel = $('game');
    entries.forEach(function (e, i) {
      var o = el('option', null, entryLabel(e, i));
      o.value = String(i);
      sel.appendChild(o);
    });
    if (!entries.length) {
      var errs = DATA.matches.map(function (m) { return m.error ? m.error.line : ''; }).filter(Boolean);
      $('narrative').textContent = 'Nothing to replay.';
      showError(errs.join('\n'));
      $('controls').hidden = true;
      return false;
    }
    sel.addEventListener('change', function () { go(Number(sel.value), 0); });
    $('slider').addEventListener('input', function () { go(cur.entry, Number($('slider').value)); });
    $('first').addEventListener('click', function () { go(cur.entry, 0); });
    $('prev').addEventListener('click', function () { go(cur.entry, cur.move - 1); });
    $('next').addEventListener('click', function () { go(cur.entry, cur.move + 1); });
    $('last').addEventListener('click', function () { go(cur.entry, lastMove(cur.entry)); });
    document.addEventListener('keydown', onKey);
    return true;
  }

  function lastMove(i) { return Math.max(0, entries[i].game.states.length - 1); }

  function onKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var tag = ev.target && ev.target.tagName;
    if (tag === 'SELECT' && (ev.key === 'ArrowUp' || ev.key === 'ArrowDown')) return;
    var handled = true;
    switch (ev.key) {
      case 'ArrowRight': go(cur.entry, cur.move + 1); break;
      case 'ArrowLeft': go(cur.entry, cur.move - 1); break;
      case 'Home': go(cur.entry, 0); break;
      case 'End': go(cur.entry, lastMove(cur.entry)); break;
      case ']': case 'PageDown': go(cur.entry + 1, 0); break;
      case '[': case 'PageUp': go(cur.entry - 1, 0); break;
      default: handled = false;
    }
    if (handled) ev.preventDefault();
  }

  function go(i, move) {
    i = Math.max(0, Math.min(entries.length - 1, i));
    move = Math.max(0, Math.min(lastMove(i), move));
    cur = {entry: i, move: move};
    draw();
    try { history.replaceState(null, '', '#m=' + (entries[i].mi + 1) + '&g=' + entries[i].game.game + '&s=' + move); }
    catch (e) { /* some browsers refuse it on file: pages */ }
  }

  function showError(text) {
    var box = $('error');
    box.textContent = text;
    box.hidden = !text;
  }

  function draw() {
    var e = entries[cur.entry], g = e.game, m = e.match;
    var players = m.players;
    document.body.dataset.game = String(g.game);
    document.body.dataset.match = String(e.mi + 1);
    document.body.dataset.move = String(cur.move);
    $('game').value = String(cur.entry);
    var n = g.states.length - 1;
    var slider = $('slider');
    slider.max = String(Math.max(0, n));
    slider.value = String(cur.move);
    $('first').disabled = $('prev').disabled = cur.move <= 0;
    $('next').disabled = $('last').disabled = cur.move >= n;
    var atEnd = cur.move >= n;
    if (!g.states.length) {
      $('counter').textContent = 'no move to replay';
      $('narrative').textContent = 'Game ' + g.game + ' cannot be replayed.';
      $('status').textContent = '';
      showError(g.error ? g.error.line : '');
      $('rows').replaceChildren();
      $('players').replaceChildren();
      $('discarded').hidden = true;
      $('final').hidden = true;
      return;
    }
    var s = g.states[cur.move];
    $('counter').textContent = (cur.move === 0 ? 'setup' : 'move ' + cur.move) + ' / ' + n;
    $('narrative').textContent = s.narrative;
    drawStatus(s);
    showError(atEnd && g.error ? (g.error.move ? 'Play broke off at move ' + g.error.move + ': ' : '') + g.error.line : '');
    drawRows(s);
    drawPlayers(s);
    drawFinal(e, atEnd);
  }

  function drawStatus(s) {
    var st = $('status');
    st.replaceChildren();
    st.appendChild(document.createTextNode('round ' + s.round + ' \u00b7 '));
    if (s.last_round) {
      st.appendChild(el('span', 'badge', 'last round!'));
      st.appendChild(document.createTextNode(' \u00b7 '));
    }
    var parts = [];
    parts.push(s.over ? 'game over' : s.next + ' to play');
    parts.push(plural(s.deck, 'card') + ' left in the deck');
    st.appendChild(document.createTextNode(parts.join(' \u00b7 ')));
  }

  function drawRows(s) {
    var box = $('rows');
    box.replaceChildren();
    s.rows.forEach(function (r) {
      var row = el('div', 'row' + (r.taken ? ' taken' : ''));
      row.dataset.row = String(r.row);
      row.dataset.taken = String(r.taken);
      row.appendChild(el('span', 'rlabel', 'row ' + r.row));
      if (r.taken) {
        row.appendChild(el('span', 'rnote', 'taken' + (r.taken_by ? ' by ' + r.taken_by : '')));
      } else {
        var cards = el('span', 'cards');
        r.cards.forEach(function (c) { cards.appendChild(card(c)); });
        for (var k = r.cards.length; k < r.limit; k++) cards.appendChild(el('span', 'slot'));
        row.appendChild(cards);
      }
      box.appendChild(row);
    });
    var d = $('discarded');
    d.hidden = !s.discarded.length;
    d.textContent = s.discarded.length ? 'Discarded with leftover rows: ' + s.discarded.map(word).join(', ') : '';
  }

  function drawPlayers(s) {
    var box = $('players');
    box.replaceChildren();
    s.players.forEach(function (p) {
      var panel = el('div', 'player' + (!s.over && p.player === s.next ? ' next' : ''));
      panel.dataset.player = p.player;
      panel.dataset.score = String(p.score);
      var head = el('div', 'phead');
      var name = el('span', 'pname', (!s.over && p.player === s.next ? '\u25b6 ' : '') + p.player);
      if (p.taken && !s.over) name.appendChild(el('span', 'took', ' \u2713 took a row'));
      head.appendChild(name);
      head.appendChild(el('span', 'score', p.score));
      panel.appendChild(head);
      var chips = el('div', 'chips');
      Object.keys(p.collection).forEach(function (k) {
        var c = p.collection[k];
        if (c) chips.appendChild(chip(k, c));
      });
      if (!chips.childNodes.length) chips.appendChild(el('span', 'empty', 'no cards yet'));
      panel.appendChild(chips);
      var best = 'positive: ' + (p.positive.length ? p.positive.join(', ') : 'none');
      if (p.jokers.length) best = 'jokers \u2192 ' + p.jokers.join(', ') + ' \u00b7 ' + best;
      panel.appendChild(el('div', 'best', best));
      box.appendChild(panel);
    });
  }

  function scoreTable(caption, players, scores, winners) {
    var wrap = el('div');
    wrap.appendChild(el('h2', null, caption));
    var t = el('table', 'scores');
    var order = players.map(function (p, i) { return i; });
    order.sort(function (a, b) { return scores[b] - scores[a] || a - b; });
    var rank = 0, prev = null;
    order.forEach(function (i, k) {
      if (scores[i] !== prev) { rank = k + 1; prev = scores[i]; }
      var tr = el('tr', winners.indexOf(players[i]) >= 0 ? 'win' : null);
      tr.appendChild(el('td', 'num', rank + '.'));
      tr.appendChild(el('td', null, players[i]));
      tr.appendChild(el('td', 'num', scores[i]));
      t.appendChild(tr);
    });
    wrap.appendChild(t);
    return wrap;
  }

  function drawFinal(e, atEnd) {
    var box = $('final');
    var gs = $('game-scores'), ms = $('match-scores');
    gs.replaceChildren();
    ms.replaceChildren();
    box.hidden = !atEnd;
    if (!atEnd) return;
    var g = e.game, m = e.match, players = m.players;
    if (g.scores) {
      gs.appendChild(scoreTable('Final scores \u00b7 game ' + g.game, players,
        g.scores.map(function (x) { return x.score; }), g.winners));
    } else {
      var last = g.states[g.states.length - 1];
      var now = last.players.map(function (p) { return p.score; });
      var top = Math.max.apply(null, now);
      gs.appendChild(scoreTable('Scores so far \u00b7 game ' + g.game + ' (not finished)', players, now,
        players.filter(function (p, i) { return now[i] === top; })));
    }
    if (m.totals && m.games.length > 1) {
      ms.appendChild(scoreTable('Match totals \u00b7 ' + plural(m.totals.games, 'complete game'), players,
        m.totals.scores.map(function (x) { return x.score; }), m.totals.winners));
    }
  }

  function startAt() {
    var want = DATA.start || {match: 1, game: 1, move: 0};
    var h = /^#m=(\d+)&g=(\d+)&s=(\d+)$/.exec(location.hash);
    if (h) want = {match: Number(h[1]), game: Number(h[2]), move: Number(h[3])};
    var i = 0;
    entries.forEach(function (e, k) { if (e.mi + 1 === want.match && e.game.game === want.game) i = k; });
    go(i, want.move < 0 ? lastMove(i) : want.move);
  }

  if (setup()) startAt();
  document.body.dataset.ready = 'true';
})();
"""
