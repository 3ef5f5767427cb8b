(function () {
  'use strict';
  var DATA = JSON.parse(document.getElementById('replay-data').textContent);
  var LABELS = DATA.labels;
  var WORDS = {joker: 'joker', golden_joker: 'golden joker', plus2: '+2'};
  // The page's words (i18n.js): t(message, {values}), nt(singular, plural, n, {values}); the log's names as the
  // data has them; the moves' narrative from their story (narrative.js); the analysis' explanations and choices
  // in the page's language from their parts (explanation, choiceName).
  var I18N = ColorettoI18n.create(DATA.i18n || {}, DATA.langs || ['en']);
  var t = I18N.t, nt = I18N.nt;
  var $ = function (id) { return document.getElementById(id); };
  var entries = [];  // every game of every match, in order
  DATA.matches.forEach(function (m, mi) {
    m.games.forEach(function (g) {
      if (g.changes) g.states = ColorettoStates.rebuild(g, DATA.phrases);  // the states by difference (states.js)
      entries.push({match: m, mi: mi, game: g});
    });
  });
  var cur = {entry: 0, move: 0};
  var resizing = false;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  var iso = ColorettoNarrative.iso;  // a name inside text (a title, a sentence): isolated
  // Append ``text``, whose names come isolated (U+2068 ... U+2069: iso), to ``box``: each name as a <bdi>, the
  // marks themselves left out (a name's own isolating characters are escapes: the pairs are iso's).
  function appendIsolated(box, text) {
    String(text).split(/(\u2068[^\u2069]*\u2069)/).forEach(function (part) {
      if (!part) return;
      if (part.charAt(0) === '\u2068') box.appendChild(el('bdi', 'who', part.slice(1, -1)));
      else box.appendChild(document.createTextNode(part));
    });
    return box;
  }
  function word(card) { return t(WORDS[card] || card); }
  function words(list) { return list.map(word).join(', '); }
  // A card's chip label in the page's language (lang/chips.py: the English letters are the messages).
  function label(name) { return LABELS[name] ? t(LABELS[name]) : name; }
  function card(name) {
    var c = el('span', 'card k-' + name, label(name));
    c.dataset.card = name;
    c.title = word(name);
    return c;
  }
  // A collection tile: its colour, and its letters for who cannot tell colours apart ("rd×2").
  function chip(name, n) {
    var c = el('span', 'chip k-' + name);
    c.appendChild(el('span', 'cl', label(name)));
    c.appendChild(document.createTextNode('\u00d7' + n));
    c.dataset.card = name;
    c.dataset.count = n;
    c.title = word(name) + ' \u00d7' + n;
    return c;
  }
  function entryLabel(e, i) {
    var g = e.game;
    var text = DATA.matches.length > 1 ? t('match {match} \u00b7 game {game}', {match: e.mi + 1, game: g.game})
      : t('game {game}', {game: g.game});
    text += ' \u00b7 ' + nt('{n} move', '{n} moves', g.moves);
    if (g.error) text += ' \u00b7 ' + t('error');
    else if (!g.complete) text += ' \u00b7 ' + t('unfinished');
    return text;
  }

  // A club site's replay: its date and players as the heading, a link to the match's page; the links back
  // above it (the site's index, the evening, the players: in the page itself, #back), each to the page in the
  // language shown.
  function heading(h) {
    var first = (DATA.langs || ['en'])[0];
    function page(base) { return base + (I18N.lang === first ? '' : '.' + I18N.lang) + '.html'; }
    var a = el('a', null, h.date ? h.date + ' \u00b7 ' : '');
    (h.players || []).forEach(function (p, k) {
      if (k) a.appendChild(document.createTextNode(', '));
      a.appendChild(who(p));
    });
    a.dataset.link = 'match';
    $('title').replaceChildren(a);
    function links() {
      a.href = page(h.match);
      document.querySelectorAll('#back a[data-page]').forEach(function (b) {
        b.href = page(b.dataset.page);
        if (b.dataset.link === 'evening') {
          b.firstChild.textContent = b.dataset.date ? t('Evening of {date}', {date: b.dataset.date}) : t('Undated matches');
        }
      });
    }
    links();
    I18N.onChange(links);
  }

  function setup() {
    var one = DATA.matches.length === 1 ? DATA.matches[0] : null;
    var title = one && one.match_id ? one.match_id : DATA.title;
    if (DATA.heading) heading(DATA.heading);
    // A match without an id of its own is named by a hash ("sha256-..."): its players say more.
    else if (one && (!one.match_id || one.match_id.indexOf('sha256-') === 0) && (one.players || []).length) {
      $('title').replaceChildren();
      one.players.forEach(function (p, k) {
        if (k) $('title').appendChild(document.createTextNode(', '));
        $('title').appendChild(who(p));
      });
    } else $('title').textContent = title;
    var sel = $('game');
    I18N.apply();
    I18N.switcher($('langs'));
    letters();
    fillGames();
    I18N.onChange(function () { letters(); fillGames(); if (entries.length) draw(); else $('narrative').textContent = t('Nothing to replay.'); });
    if (!entries.length) {
      var errs = DATA.matches.map(function (m) { return m.error ? m.error.line : ''; }).filter(Boolean);
      $('narrative').textContent = t('Nothing to replay.');
      showError(errs.join('\n'));
      $('controls').hidden = true;
      $('to-final').hidden = true;
      return false;
    }
    window.addEventListener('resize', function () {
      if (resizing) return;
      resizing = true;
      window.requestAnimationFrame(function () { resizing = false; drawChart(entries[cur.entry]); });
    });
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

  function fillGames() {
    var sel = $('game');
    sel.replaceChildren();
    entries.forEach(function (e, i) {
      var o = el('option', null, entryLabel(e, i));
      o.value = String(i);
      sel.appendChild(o);
    });
    sel.value = String(cur.entry);
  }
  function letters() {
    var list = Object.keys(LABELS).map(function (k) { return label(k) === word(k) ? label(k) : label(k) + ' ' + word(k); });
    $('letters').textContent = t("Cards carry their colour's letters: {letters}.", {letters: list.join(t(', '))});
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
      $('counter').textContent = t('no move to replay');
      $('narrative').textContent = t('Game {game} cannot be replayed.', {game: g.game});
      $('status').textContent = '';
      showError(g.error ? g.error.line : '');
      $('rows').replaceChildren();
      $('players').replaceChildren();
      $('discarded').hidden = true;
      $('final').hidden = true;
      drawAnalysis(e);
      return;
    }
    var s = g.states[cur.move];
    $('narrative').replaceChildren();
    $('counter').textContent = (cur.move === 0 ? t('setup') : t('move {move}', {move: cur.move})) + ' / ' + n;
    appendIsolated($('narrative'), s.story ? ColorettoNarrative.tell(s.story, t, word) : s.narrative);
    drawStatus(s);
    showError(atEnd && g.error ? (g.error.move ? t('Play broke off at move {move}: ', {move: g.error.move}) : '') + g.error.line : '');
    drawRows(s);
    drawPlayers(s);
    drawFinal(e, atEnd);
    drawAnalysis(e);
  }

  function drawStatus(s) {
    var st = $('status');
    st.replaceChildren();
    st.appendChild(document.createTextNode(t('round {round}', {round: s.round}) + ' \u00b7 '));
    if (s.last_round) {
      st.appendChild(el('span', 'badge', t('last round!')));
      st.appendChild(document.createTextNode(' \u00b7 '));
    }
    var parts = [];
    parts.push(s.over ? t('game over') : t('{who} to play', {who: iso(s.next)}));
    parts.push(nt('{n} card left in the deck', '{n} cards left in the deck', s.deck));
    appendIsolated(st, parts.join(' \u00b7 '));
  }

  function drawRows(s) {
    var box = $('rows');
    box.replaceChildren();
    s.rows.forEach(function (r) {
      var row = el('div', 'row' + (r.taken ? ' taken' : ''));
      row.dataset.row = String(r.row);
      row.dataset.taken = String(r.taken);
      row.appendChild(el('span', 'rlabel', t('row {row}', {row: r.row})));
      if (r.taken) {
        row.appendChild(appendIsolated(el('span', 'rnote'), r.taken_by ? t('taken by {who}', {who: iso(r.taken_by)}) : t('taken')));
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
    d.textContent = s.discarded.length ? t('Discarded with leftover rows: {cards}', {cards: words(s.discarded)}) : '';
  }

  function drawPlayers(s) {
    var box = $('players');
    box.replaceChildren();
    s.players.forEach(function (p) {
      var panel = el('div', 'player' + (!s.over && p.player === s.next ? ' next' : ''));
      panel.dataset.player = p.player;
      panel.dataset.score = String(p.score);
      var head = el('div', 'phead');
      var name = el('span', 'pname', !s.over && p.player === s.next ? '\u25b6 ' : '');
      name.appendChild(who(p.player));
      if (p.taken && !s.over) name.appendChild(el('span', 'took', ' \u2713 ' + t('took a row')));
      head.appendChild(name);
      head.appendChild(el('span', 'score', p.score));
      panel.appendChild(head);
      var chips = el('div', 'chips');
      Object.keys(p.collection).forEach(function (k) {
        var c = p.collection[k];
        if (c) chips.appendChild(chip(k, c));
      });
      if (!chips.childNodes.length) chips.appendChild(el('span', 'empty', t('no cards yet')));
      panel.appendChild(chips);
      var best = choiceText(p.jokers.length ? p.jokers : null, p.positive);
      panel.appendChild(el('div', 'best', best));
      box.appendChild(panel);
    });
  }

  // rows: [{player, score, rank}] in seat order, ranked by the report; listed by rank, ties in seat order.
  function scoreTable(caption, rows, winners) {
    var wrap = el('div');
    wrap.appendChild(el('h2', null, caption));
    var tbl = el('table', 'scores');
    var byRank = rows.map(function (r, seat) { return {r: r, seat: seat}; });
    byRank.sort(function (a, b) { return a.r.rank - b.r.rank || a.seat - b.seat; });
    byRank.forEach(function (x) {
      var r = x.r;
      var tr = el('tr', winners.indexOf(r.player) >= 0 ? 'win' : null);
      tr.dataset.player = r.player;
      tr.dataset.rank = String(r.rank);
      tr.appendChild(el('td', 'num', r.rank + '.'));
      tr.appendChild(el('td', 'mark')).appendChild(who(r.player));
      tr.appendChild(el('td', 'num', r.score));
      tbl.appendChild(tr);
    });
    wrap.appendChild(tbl);
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
      gs.appendChild(scoreTable(t('Final scores \u00b7 game {game}', {game: g.game}), g.scores, g.winners));
    } else if (g.scores_so_far) {
      gs.appendChild(scoreTable(t('Scores so far \u00b7 game {game} (not finished)', {game: g.game}), g.scores_so_far, g.leaders));
    }
    drawClaims(g);
    if (m.totals && m.games.length > 1) {
      ms.appendChild(scoreTable(nt('Match totals \u00b7 {n} complete game', 'Match totals \u00b7 {n} complete games', m.totals.games),
        m.totals.scores, m.totals.winners));
    }
  }

  function verdictText(c) {
    switch (c.status) {
      case 'agrees': return t('agrees');
      case 'over-claimed': return t('over-claimed by {n}', {n: c.difference});
      case 'under-claimed': return t('under-claimed by {n}', {n: -c.difference});
      case 'illegal-choice': return t('illegal choice');
      case 'choice-below-optimum': return t('choice below the optimum');
      case 'choice-not-claimed': return t('choice does not score the claim');
      default: return c.status;
    }
  }
  function choiceText(jokers, positive) {
    var parts = [];
    if (jokers) parts.push(t('jokers \u2192 {colours}', {colours: jokers.length ? words(jokers) : t('none')}));
    if (positive) parts.push(t('positive: {colours}', {colours: positive.length ? words(positive) : t('none')}));
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
    box.appendChild(el('h2', null, t('Claims \u00b7 game {game}', {game: g.game})));
    g.claims.forEach(function (c) {
      var d = el('div', 'claim ' + (c.agrees ? 'ok' : 'bad'));
      d.dataset.claim = c.player;
      d.dataset.status = c.status;
      var head = el('div', 'chead');
      head.appendChild(el('span', 'pname')).appendChild(who(c.player));
      head.appendChild(el('span', 'verdict', (c.agrees ? '\u2713 ' : '\u2717 ') + verdictText(c)));
      d.appendChild(head);
      d.appendChild(line('claimed', t('claimed'), c.claimed_score === null ? t('no score') : c.claimed_score,
        choiceText(c.claimed_jokers, c.claimed_positive)));
      d.appendChild(line('optimum', t('optimum'), c.optimal_score, choiceText(c.optimal_jokers, c.optimal_positive)));
      if (c.problems.length) {
        var ul = el('ul');
        c.problems.forEach(function (p) { ul.appendChild(el('li', null, p.message)); });
        d.appendChild(ul);
      }
      box.appendChild(d);
    });
  }

  // ------------------------------------------------------------------ the analysis (analyze --json), when given

  var LINE_COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#8c564b'];
  var MARKS = ['inaccuracy', 'mistake', 'blunder'];
  // SVG's namespace, as the HTML parser gives it to an <svg> element (the page names no address).
  var NS = (function () { var d = document.createElement('div'); d.innerHTML = '<svg></svg>'; return d.firstChild.namespaceURI; })();

  function svg(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  // A name from the log: its own text, isolated, so that no character in it turns the text around it,
  // and its control characters shown as escapes (\x07), as the terminal shows them.
  function who(name) {
    return el('bdi', 'who', String(name).replace(/[\u0000-\u001f\u007f-\u009f]/g, function (c) {
      return '\\x' + ('0' + c.charCodeAt(0).toString(16)).slice(-2);
    }));
  }
  // A key of the data's own (a player called "constructor" is no key of every object).
  function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }
  function num(x, digits) { return typeof x === 'number' && isFinite(x) ? I18N.decimal(x.toFixed(digits)) : ''; }
  function signed(x) { return typeof x === 'number' && isFinite(x) ? (x > 0 ? '+' : x < 0 ? '\u2212' : '') + I18N.decimal(Math.abs(x).toFixed(1)) : ''; }
  // a mark as the analysis says it (``mark_label``): ``mistake``, near a line ``inaccuracy\u2013mistake`` or
  // ``mistake?``, each mark's word translated
  function markText(d) {
    var label = d.mark_label || d.mark || '';
    var unsure = label.charAt(label.length - 1) === '?';
    return label.replace(/\?$/, '').split('\u2013').map(function (k) { return t(k); }).join('\u2013') + (unsure ? '?' : '');
  }
  function pct(x) { return typeof x === 'number' && isFinite(x) ? Math.round(100 * x) + '%' : ''; }
  // A choice as analyze labels it (draw, take row 2, row 3) in the page's language (coach.explain.choice_name).
  function choiceName(label) {
    if (label === 'draw') return t('draw');
    var m = /^take row (\d+)$/.exec(label);
    if (m) return t('take row {row}', {row: m[1]});
    m = /^row (\d+)$/.exec(label);
    return m ? t('row {row}', {row: m[1]}) : String(label);
  }
  // The explanation in the page's language, from its parts (coach.explain.render: the same messages, the same
  // values); the English text of the data when it has no parts (an analysis written before they existed).
  function joined(items) {
    var out = items[0];
    for (var i = 1; i < items.length; i++) out = t('{list}, {item}', {list: out, item: items[i]});
    return out;
  }
  function sayValue(v, first) {
    if (typeof v === 'string') return v;
    if (!v || typeof v !== 'object') return String(v);
    if (has(v, 'number')) return I18N.decimal(v.number);
    if (has(v, 'card')) return word(v.card);
    if (Array.isArray(v.cards)) return v.cards.length ? joined(v.cards.map(word)) : t('nothing');
    if (has(v, 'choice')) {
      var name = choiceName(v.choice);
      return v.capital && first ? name.charAt(0).toUpperCase() + name.slice(1) : name;
    }
    if (Array.isArray(v.list)) return joined(v.list.map(sayPart));
    return '';
  }
  function sayPart(p) {
    var template = I18N.template(p.message), values = {};
    Object.keys(p.values || {}).forEach(function (k) { values[k] = sayValue(p.values[k], template.indexOf('{' + k + '}') === 0); });
    return typeof p.plural === 'string' ? I18N.nd(p.message, p.plural, p.n, values) : t(p.message, values);
  }
  function explanation(d) {
    if (!Array.isArray(d.explanation_parts) || !d.explanation_parts.length) return d.explanation;
    try {
      var out = '';
      d.explanation_parts.forEach(function (p) {
        var s = sayPart(p);
        out += !out || /\u3002$/.test(out) ? s : ' ' + s;
      });
      return out;
    } catch (e) { return d.explanation; }
  }
  function what(d) { return d.decision === 'row' || d.card ? t('the row for {card}', {card: word(d.card)}) : t('draw or take'); }
  function lossText(d) {
    if (d.forced) return t('forced');
    if (d.exact) return t('{loss} exact', {loss: num(d.loss, 1)});
    // as many digits as the standard error carries: 0.12 ± 0.05, never ± 0.0
    var digits = typeof d.loss_se === 'number' && d.loss_se > 0 && d.loss_se < 0.1 ? 2 : 1;
    return num(d.loss, digits) + (typeof d.loss_se === 'number' && d.loss_se > 0 ? ' \u00b1 ' + num(d.loss_se, digits) : '');
  }
  function gameDecisions(e) {
    var a = e.match.analysis;
    if (!a || !a.decisions) return null;
    return a.decisions.filter(function (d) { return d.game === e.game.game; });
  }
  function entryOf(mi, game) {
    for (var k = 0; k < entries.length; k++) if (entries[k].mi === mi && entries[k].game.game === game) return k;
    return -1;
  }
  function jump(i, move) {
    return function () { go(i, move); };
  }

  function drawAnalysis(e) {
    var a = e.match.analysis;
    $('side').hidden = $('summary').hidden = !a;
    document.body.classList.toggle('analysed', !!a);
    if (!a) return;
    drawDecisions(e);
    drawChart(e);
    drawMarked(e);
    drawSummary(e);
  }

  function fact(name, label, value) {
    var f = el('span', 'fact');
    f.dataset.fact = name;
    f.appendChild(el('span', 'flabel', label + ' '));
    f.appendChild(el('b', null, value));
    return f;
  }

  // Each decision of the move on the slider: played, best, loss, mark, the explanation, the best choices.
  function drawDecisions(e) {
    var box = $('decisions');
    box.replaceChildren();
    var all = gameDecisions(e) || [];
    var here = all.filter(function (d) { return d.move === cur.move; });
    var head = el('h2', null, cur.move === 0 ? t('Setup') : t('Move {move}', {move: cur.move}));
    if (here.length) {
      head.appendChild(el('span', 'hint', ' ' + (cur.move === 1 ? t('decided at the table of the setup (\u2039)')
        : t('decided at the table of move {move} (\u2039)', {move: cur.move - 1}))));
    }
    box.appendChild(head);
    if (!here.length) {
      box.appendChild(el('p', 'empty', all.length ? (cur.move === 0 ? t('No decision yet: move 1 is the first.')
        : t('No decision analysed at this move.')) : t('No decision of this game was analysed.')));
      return;
    }
    here.forEach(function (d) {
      var card = el('article', 'dec' + (d.mark ? ' m-' + d.mark : '') + (d.forced ? ' forced' : ''));
      card.dataset.decision = d.decision;
      card.dataset.mark = d.mark || '';
      var h = el('div', 'dhead');
      h.appendChild(who(d.player));
      h.appendChild(document.createTextNode(' \u00b7 ' + what(d)));
      if (d.mark_label || d.mark) h.appendChild(el('span', 'mbadge', markText(d)));
      card.appendChild(h);
      var facts = el('div', 'facts');
      facts.appendChild(fact('played', t('played'), choiceName(d.played)));
      if (!d.forced) {
        facts.appendChild(fact('best', t('best choice'), d.about_equal ? t('about equal')
          : d.best === d.played ? t('{choice} (played)', {choice: choiceName(d.best)}) : choiceName(d.best)));
      }
      if (!d.forced) facts.appendChild(fact('loss', t('loss'), lossText(d)));
      if (!d.forced && typeof d.win_prob_played === 'number') {
        facts.appendChild(fact('win', t('win'), d.best === d.played || typeof d.win_prob_best !== 'number'
          ? pct(d.win_prob_played) : pct(d.win_prob_played) + ' \u2192 ' + pct(d.win_prob_best)));
      }
      if (!d.forced && typeof d.match_chance_played === 'number') {
        facts.appendChild(fact('match', t('match win'), d.best === d.played || typeof d.match_chance_best !== 'number'
          ? pct(d.match_chance_played) : pct(d.match_chance_played) + ' \u2192 ' + pct(d.match_chance_best)));
      }
      if (!d.forced && typeof d.chance_loss === 'number' && d.chance_loss > 0) {
        facts.appendChild(fact('chance_loss', t('chance lost'), lostPct(d.chance_loss)));
      }
      facts.appendChild(fact('mark', t('mark'), d.forced ? t('forced: the only choice')
        : d.mark_label || d.mark ? markText(d) : t('none')));
      card.appendChild(facts);
      var at = decisionTable(e, d);
      if (at) card.appendChild(at);
      var why = typeof d.explanation === 'string' && d.explanation ? explanation(d) : '';
      if (why) card.appendChild(el('p', 'why', why));
      var table = choicesTable(d);
      if (table) card.appendChild(table);
      box.appendChild(card);
    });
  }

  // The rows as they stood when the decision was taken (the state before the move), beside its card, the played
  // row and the best one marked: on a phone the table the decision is about sits with it, no scrolling needed.
  function rowOf(label) { var m = /row (\d+)$/.exec(label || ''); return m ? Number(m[1]) : -1; }
  function decisionTable(e, d) {
    var before = e.game.states[cur.move - 1];
    if (d.forced || !before || !Array.isArray(before.rows)) return null;
    var played = rowOf(d.played), best = d.about_equal || d.best === d.played ? -1 : rowOf(d.best);
    var box = el('div', 'dtable');
    box.dataset.table = 'before';
    if (d.card) {
      var drawn = el('div', 'dcard');
      drawn.appendChild(el('span', 'flabel', t('the row for {card}', {card: word(d.card)}) + ' '));
      drawn.appendChild(card(d.card));
      box.appendChild(drawn);
    }
    before.rows.forEach(function (r) {
      var row = el('div', 'row' + (r.taken ? ' taken' : '') + (r.row === played ? ' played' : '')
        + (r.row === best ? ' best' : ''));
      row.dataset.row = String(r.row);
      row.appendChild(el('span', 'rlabel', t('row {row}', {row: r.row})));
      if (r.taken) {
        row.appendChild(el('span', 'rnote', t('taken')));
      } else {
        var cards = el('span', 'cards');
        r.cards.forEach(function (c) { cards.appendChild(card(c)); });
        for (var k = r.cards.length; k < r.limit; k++) cards.appendChild(el('span', 'slot'));
        row.appendChild(cards);
      }
      if (r.row === played) row.appendChild(el('span', 'rtag', t('played')));
      if (r.row === best) row.appendChild(el('span', 'rtag', t('best choice')));
      box.appendChild(row);
    });
    return box;
  }

  // The best three choices in the analysis's order (the best first: by the chance of winning what is played,
  // the margin breaking ties within the noise), and the played one if it is not among them.
  function choicesTable(d) {
    if (d.forced || !Array.isArray(d.choices) || d.choices.length < 2) return null;
    var ranked = d.choices.filter(function (c) { return c && typeof c.margin === 'number'; }).slice();
    var shown = ranked.slice(0, 3);
    ranked.slice(3).forEach(function (c) { if (c.choice === d.played) shown.push(c); });
    if (!shown.length) return null;
    var tbl = el('table', 'choices');
    var hr = el('tr');
    var inMatch = shown.some(function (c) { return typeof c.match_chance === 'number'; });
    [t('choice'), t('margin'), t('win')].concat(inMatch ? [t('match win')] : []).forEach(function (h) {
      hr.appendChild(el('th', null, h));
    });
    tbl.appendChild(hr);
    shown.forEach(function (c) {
      var tr = el('tr', (c.choice === d.played ? 'played' : '') + (c.choice === d.best ? ' best' : ''));
      tr.dataset.choice = c.choice;
      var name = el('td', null, choiceName(c.choice));
      if (c.choice === d.played) name.appendChild(el('span', 'tag', ' ' + t('played')));
      tr.appendChild(name);
      tr.appendChild(el('td', 'num', signed(c.margin) + (typeof c.margin_se === 'number' && c.margin_se > 0
        ? ' \u00b1 ' + num(c.margin_se, 1) : '')));
      tr.appendChild(el('td', 'num', pct(c.win_prob)));
      if (inMatch) tr.appendChild(el('td', 'num', pct(c.match_chance)));
      tbl.appendChild(tr);
    });
    return tbl;
  }

  // Every player's expected margin against the move number, the marks on the line of who made them.
  function drawChart(e) {
    var box = $('chart'), legend = $('legend');
    if (!e || !e.match.analysis) return;
    box.replaceChildren();
    legend.replaceChildren();
    var players = e.match.players;
    var points = (gameDecisions(e) || []).filter(function (d) { return d.margins; });
    if (!points.length) {
      box.appendChild(el('p', 'empty', t('No decision with a choice to chart in this game.')));
      return;
    }
    players.forEach(function (p, k) {
      var item = el('span', 'key');
      var swatch = el('span', 'swatch');
      swatch.style.background = LINE_COLOURS[k % LINE_COLOURS.length];
      item.appendChild(swatch);
      item.appendChild(who(p));
      legend.appendChild(item);
    });
    MARKS.forEach(function (m) {
      var item = el('span', 'key');
      item.appendChild(el('span', 'dot m-' + m));
      item.appendChild(document.createTextNode(t(m)));
      legend.appendChild(item);
    });
    var W = Math.max(240, Math.floor(box.clientWidth || 320));
    var H = W < 500 ? 200 : 240;
    var L = 38, R = 12, T = 10, B = 34;
    var n = Math.max(1, e.game.states.length - 1);
    var top = 1;
    points.forEach(function (d) { players.forEach(function (p) { if (has(d.margins, p)) top = Math.max(top, Math.abs(d.margins[p])); }); });
    top = Math.ceil(top / 5) * 5;
    var x = function (m) { return L + (W - L - R) * m / n; };
    var y = function (v) { return T + (H - T - B) * (top - v) / (2 * top); };
    var s = svg('svg', {viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img',
      'aria-label': t('expected margin of every player over game {game}', {game: e.game.game})});
    s.appendChild(svg('rect', {x: L, y: T, width: W - L - R, height: H - T - B, fill: '#fff', 'class': 'plot'}));
    [top, top / 2, 0, -top / 2, -top].forEach(function (v) {
      s.appendChild(svg('line', {x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: v === 0 ? '#888' : '#e3e3e3'}));
      s.appendChild(svg('text', {x: L - 4, y: y(v) + 4, 'text-anchor': 'end', 'class': 'tick'},
        v === 0 ? '0' : (v > 0 ? '+' : '\u2212') + Math.abs(v)));
    });
    var steps = [1, 2, 5, 10, 20, 25, 50, 100];
    var every = steps.filter(function (k) { return n / k <= (W - L - R) / 38; })[0] || 100;
    for (var m = 0; m <= n; m += every) {
      s.appendChild(svg('line', {x1: x(m), x2: x(m), y1: H - B, y2: H - B + 4, stroke: '#888'}));
      s.appendChild(svg('text', {x: x(m), y: H - B + 16, 'text-anchor': 'middle', 'class': 'tick xtick'}, m));
    }
    s.appendChild(svg('text', {x: L + (W - L - R) / 2, y: H - 2, 'text-anchor': 'middle', 'class': 'tick'}, t('move')));
    // the move on the slider
    s.appendChild(svg('line', {x1: x(cur.move), x2: x(cur.move), y1: T, y2: H - B, stroke: '#2b6cb0',
      'stroke-width': 2, 'stroke-dasharray': '4 3', 'class': 'cursor'}));
    players.forEach(function (p, k) {
      var coords = points.filter(function (d) { return has(d.margins, p); })
        .map(function (d) { return x(d.move).toFixed(1) + ',' + y(d.margins[p]).toFixed(1); });
      s.appendChild(svg('polyline', {points: coords.join(' '), fill: 'none', 'stroke-width': 2,
        stroke: LINE_COLOURS[k % LINE_COLOURS.length]}));
    });
    // anywhere on the plot: the nearest move
    s.addEventListener('click', function (ev) {
      var r = s.getBoundingClientRect();
      var px = (ev.clientX - r.left) * W / r.width;
      go(cur.entry, Math.round((px - L) / (W - L - R) * n));
    });
    var placed = [];  // the dots drawn so far: [cx, cy, r]; a dot that would overlap one moves off it, up or down
    points.forEach(function (d) {
      if (!d.mark || !has(d.margins, d.player)) return;
      var cx = x(d.move), cy0 = y(d.margins[d.player]), cy = cy0, rad = 3 + MARKS.indexOf(d.mark) + 3;
      var clash = function (q) { return Math.abs(q[0] - cx) < q[2] + rad + 1 && Math.abs(q[1] - cy) < q[2] + rad + 1; };
      for (var k = 1; placed.some(clash) && k < 24; k++) cy = cy0 + (k % 2 ? 1 : -1) * Math.ceil(k / 2) * (rad + 4);
      placed.push([cx, cy, rad]);
      var g = svg('g', {'class': 'point', 'data-move': d.move, 'data-mark': d.mark, tabindex: 0, role: 'button',
        'aria-label': t('move {move}: {mark}', {move: d.move, mark: t(d.mark)})});
      g.appendChild(svg('circle', {cx: cx, cy: cy, r: 16, fill: 'transparent', 'class': 'hit'}));
      g.appendChild(svg('circle', {cx: cx, cy: cy, r: rad,
        'class': 'dot m-' + d.mark + (d.move === cur.move ? ' here' : '')}));
      g.appendChild(svg('title', {}, t('move {move}', {move: d.move}) + ' \u00b7 ' + iso(d.player) + ' \u00b7 ' + t(d.mark)));
      g.addEventListener('click', function (ev) { ev.stopPropagation(); go(cur.entry, d.move); });
      g.addEventListener('keydown', function (ev) {
        if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); go(cur.entry, d.move); }
      });
      s.appendChild(g);
    });
    box.appendChild(s);
  }

  // The marked decisions of this game, as buttons that move the slider.
  function drawMarked(e) {
    var box = $('marked');
    box.replaceChildren();
    var marked = (gameDecisions(e) || []).filter(function (d) { return d.mark; });
    if (!marked.length) {
      box.appendChild(el('p', 'empty', t('No marked decision in this game.')));
      return;
    }
    marked.forEach(function (d) {
      var b = el('button', 'jump m-' + d.mark + (d.move === cur.move ? ' here' : ''));
      b.type = 'button';
      b.dataset.move = String(d.move);
      b.dataset.mark = d.mark;
      b.appendChild(el('b', null, String(d.move)));
      b.appendChild(document.createTextNode(' '));
      b.appendChild(who(d.player));
      b.appendChild(document.createTextNode(' \u00b7 ' + t(d.mark) + ' ' + num(d.loss, 1)));
      b.title = t('move {move}: {who} played {played}, best {best}', {move: d.move, who: iso(d.player), played: choiceName(d.played), best: choiceName(d.best)});
      b.addEventListener('click', jump(cur.entry, d.move));
      box.appendChild(b);
    });
  }

  function stat(name, value, label) {
    var s = el('span', 'stat');
    s.dataset.stat = name;
    s.appendChild(el('b', null, value));
    s.appendChild(document.createTextNode(' ' + label));
    return s;
  }
  function pctOf(x, per) { return typeof x === 'number' && isFinite(x) ? (per * x).toFixed(0) + '%' : ''; }
  // A chance lost (0 to 1) as analyze prints it: whole per cent, unless rounding would carry it onto a mark's
  // line it is below (0.199, a mistake, reads 19.9%, not 20%, the blunder's line); then one decimal, cut.
  function lostPct(x) {
    var whole = Math.round(100 * x), lines = (DATA.method && DATA.method.thresholds) || {};
    var onto = Object.keys(lines).some(function (k) { return x < lines[k] && lines[k] <= whole / 100; });
    return onto ? (Math.floor(1000 * x) / 10).toFixed(1) + '%' : whole + '%';
  }
  // What analyze gives a player over a stretch (the match, or one game): accuracy (per cent), error rate
  // (a fraction), luck, skill and the final margin (points), each when present.
  function standing(box, s) {
    if (typeof s.accuracy === 'number') box.appendChild(stat('accuracy', pctOf(s.accuracy, 1), t('accuracy')));
    if (typeof s.error_rate === 'number') box.appendChild(stat('error_rate', pctOf(s.error_rate, 100), t('error rate')));
    if (typeof s.start === 'number' && s.start !== 0) box.appendChild(stat('start', signed(s.start), t('start')));
    if (typeof s.luck === 'number') box.appendChild(stat('luck', signed(s.luck), t('luck')));
    if (typeof s.skill === 'number') box.appendChild(stat('skill', signed(s.skill), t('skill')));
    if (typeof s.others === 'number') box.appendChild(stat('others', signed(s.others), t('others')));
    if (typeof s.margin === 'number') box.appendChild(stat('margin', signed(s.margin), t('final margin')));
  }

  // Per player over the match: decisions, mean loss, marks, and what the analysis adds (accuracy, luck, skill),
  // then the same for the game on screen.
  function drawSummary(e) {
    var a = e.match.analysis;
    var box = $('summary-players');
    box.replaceChildren();
    (a.summary || []).forEach(function (p) {
      if (!p.decisions && !p.forced) return;
      var card = el('div', 'pcard');
      card.dataset.player = p.player;
      card.appendChild(el('div', 'pname')).appendChild(who(p.player));
      var stats = el('div', 'stats');
      stats.appendChild(stat('decisions', String(p.decisions), p.forced ? t('decisions (+{forced} forced)', {forced: p.forced}) : t('decisions')));
      if (typeof p.mean_loss === 'number') stats.appendChild(stat('mean_loss', num(p.mean_loss, 2), t('mean loss')));
      if (p.marks) {
        MARKS.forEach(function (m) {
          if (!has(p.marks, m)) return;
          var k = p.marks[m];
          var label = k === 1 ? t(m) : t(m === 'inaccuracy' ? 'inaccuracies' : m === 'mistake' ? 'mistakes' : 'blunders');
          stats.appendChild(stat(m, String(k), label));
        });
      }
      standing(stats, p);
      card.appendChild(stats);
      var games = Array.isArray(p.games) ? p.games : [];
      var mine = games.filter(function (g) { return g && g.game === e.game.game; })[0];
      if (mine && games.length > 1) {
        var line = el('div', 'stats game-stats');
        line.dataset.game = String(mine.game);
        line.appendChild(el('span', 'flabel', t('game {game}:', {game: mine.game})));
        standing(line, mine);
        card.appendChild(line);
      }
      var costly = (p.costliest || []).filter(function (c) { return c.loss > 0; });
      if (costly.length) {
        var list = el('div', 'marked');
        costly.forEach(function (c) {
          var i = entryOf(e.mi, c.game);
          if (i < 0) return;
          var b = el('button', 'jump' + (c.mark ? ' m-' + c.mark : ''));
          b.type = 'button';
          b.dataset.game = String(c.game);
          b.dataset.move = String(c.move);
          b.textContent = (entries.filter(function (x) { return x.mi === e.mi; }).length > 1 ? t('game {game}', {game: c.game}) + ' ' : '')
            + t('move {move}', {move: c.move}) + ' \u2212' + num(c.loss, 1);
          b.title = t('played {played}, best {best}', {played: choiceName(c.played), best: choiceName(c.best)});
          b.addEventListener('click', jump(i, c.move));
          list.appendChild(b);
        });
        card.appendChild(list);
      }
      box.appendChild(card);
    });
    var m = DATA.method, note = $('method');
    note.hidden = !m;
    if (m) {
      var parts = [];
      if (m.samples) {
        // The playouts stop at the end of the round and the evaluator values the position there (analyze's
        // default, its "horizon"), or they play to the end of the game.
        var toRound = typeof m.horizon === 'string' && m.horizon.indexOf('the end of the round') === 0;
        parts.push(!m.policy ? t('up to {n} sampled orders of the unseen cards a decision', {n: m.samples})
          : toRound ? t('up to {n} sampled orders of the unseen cards a decision, every seat then playing as the {bot} bot to the end of the round, where the evaluator values the position (to the end of the game near it)', {n: m.samples, bot: m.policy})
          : t('up to {n} sampled orders of the unseen cards a decision, every seat then playing as the {bot} bot', {n: m.samples, bot: m.policy}));
      }
      if (m.exact) parts.push(t('exact in the {part}', {part: m.exact}));
      if (m.thresholds) {
        parts.push(t('marks by the winning chance lost: {marks}', {marks: Object.keys(m.thresholds).sort(function (p, q) { return m.thresholds[p] - m.thresholds[q]; })
          .map(function (k) { return t(k) + ' \u2265 ' + pctOf(m.thresholds[k], 100); }).join(', ')}));
      }
      if (m.seed !== undefined && m.seed !== null) parts.push(t('seed {seed}', {seed: m.seed}));
      note.textContent = t('How: {parts}.', {parts: parts.join('; ')});
    }
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
