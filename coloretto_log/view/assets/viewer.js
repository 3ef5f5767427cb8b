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
  // A collection tile: its colour, and its letters for who cannot tell colours apart ("rd×2").
  function chip(name, n) {
    var c = el('span', 'chip k-' + name);
    c.appendChild(el('span', 'cl', LABELS[name] || name));
    c.appendChild(document.createTextNode('\u00d7' + n));
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
      $('to-final').hidden = true;
      return false;
    }
    sel.addEventListener('change', function () { go(Number(sel.value), 0); });
    $('slider').addEventListener('input', function () { go(cur.entry, Number($('slider').value)); });
    $('first').addEventListener('click', function () { go(cur.entry, 0); });
    $('prev').addEventListener('click', function () { go(cur.entry, cur.move - 1); });
    $('next').addEventListener('click', function () { go(cur.entry, cur.move + 1); });
    $('last').addEventListener('click', function () { go(cur.entry, lastMove(cur.entry)); });
    $('to-final').addEventListener('click', toFinal);
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
    var e = entries[cur.entry], g = e.game;
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
    $('to-final').disabled = !g.states.length;
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

  // rows: [{player, score, rank}] in seat order, ranked by the report; listed by rank, ties in seat order.
  function scoreTable(caption, rows, winners) {
    var wrap = el('div');
    wrap.appendChild(el('h2', null, caption));
    var t = el('table', 'scores');
    var byRank = rows.map(function (r, seat) { return {r: r, seat: seat}; });
    byRank.sort(function (a, b) { return a.r.rank - b.r.rank || a.seat - b.seat; });
    byRank.forEach(function (x) {
      var r = x.r;
      var tr = el('tr', winners.indexOf(r.player) >= 0 ? 'win' : null);
      tr.dataset.player = r.player;
      tr.dataset.rank = String(r.rank);
      tr.appendChild(el('td', 'num', r.rank + '.'));
      tr.appendChild(el('td', 'mark', r.player));
      tr.appendChild(el('td', 'num', r.score));
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
    var g = e.game, m = e.match;
    if (g.scores) {
      gs.appendChild(scoreTable('Final scores \u00b7 game ' + g.game, g.scores, g.winners));
    } else if (g.scores_so_far) {
      gs.appendChild(scoreTable('Scores so far \u00b7 game ' + g.game + ' (not finished)', g.scores_so_far, g.leaders));
    }
    drawClaims(g);
    if (m.totals && m.games.length > 1) {
      ms.appendChild(scoreTable('Match totals \u00b7 ' + plural(m.totals.games, 'complete game'),
        m.totals.scores, m.totals.winners));
    }
  }

  function verdictText(c) {
    switch (c.status) {
      case 'agrees': return 'agrees';
      case 'over-claimed': return 'over-claimed by ' + c.difference;
      case 'under-claimed': return 'under-claimed by ' + (-c.difference);
      case 'illegal-choice': return 'illegal choice';
      case 'choice-below-optimum': return 'choice below the optimum';
      case 'choice-not-claimed': return 'choice does not score the claim';
      default: return c.status;
    }
  }
  function choiceText(jokers, positive) {
    var parts = [];
    if (jokers) parts.push('jokers \u2192 ' + (jokers.length ? jokers.join(', ') : 'none'));
    if (positive) parts.push('positive: ' + (positive.length ? positive.join(', ') : 'none'));
    return parts.join(' \u00b7 ');
  }
  function line(cls, label, value, choice) {
    var d = el('div', 'line ' + cls);
    d.appendChild(el('b', null, label + ' '));
    d.appendChild(el('span', 'value', value));
    if (choice) d.appendChild(document.createTextNode(' \u00b7 ' + choice));
    return d;
  }

  // The verdict on each claim written at the end of the game, as the report gave it.
  function drawClaims(g) {
    var box = $('claims');
    box.replaceChildren();
    box.hidden = !(g.claims && g.claims.length);
    if (box.hidden) return;
    box.appendChild(el('h2', null, 'Claims \u00b7 game ' + g.game));
    g.claims.forEach(function (c) {
      var d = el('div', 'claim ' + (c.agrees ? 'ok' : 'bad'));
      d.dataset.claim = c.player;
      d.dataset.status = c.status;
      var head = el('div', 'chead');
      head.appendChild(el('span', 'pname', c.player));
      head.appendChild(el('span', 'verdict', (c.agrees ? '\u2713 ' : '\u2717 ') + verdictText(c)));
      d.appendChild(head);
      d.appendChild(line('claimed', 'claimed', c.claimed_score === null ? 'no score' : c.claimed_score,
        choiceText(c.claimed_jokers, c.claimed_positive)));
      d.appendChild(line('optimum', 'optimum', c.optimal_score, choiceText(c.optimal_jokers, c.optimal_positive)));
      if (c.problems.length) {
        var ul = el('ul');
        c.problems.forEach(function (p) { ul.appendChild(el('li', null, p.message)); });
        d.appendChild(ul);
      }
      box.appendChild(d);
    });
  }

  function toFinal() {
    go(cur.entry, lastMove(cur.entry));
    $('final').scrollIntoView({block: 'start'});
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
