// A game's states rebuilt from the page's data (docs/replay.md). The page carries each game's states by difference
// (report.timeline.changes_json): ``kinds``, the card kinds a collection counts; ``entries``, the players'
// distinct entries, each [player, counts (in the order of ``kinds``), taken, score, jokers, positive]; and
// ``changes``, one a state: the fields that differ from the state before (the first state's all), ``rows`` and
// ``players`` as a whole list (a row as [limit, cards, taken, taken_by], a player by the index of its entry) or as
// ``{"i": item}`` for the items that changed; ``action`` as ["draw", player, row, card, last_round] or ["take",
// player, row, extra, last_round] (the cards taken: the row's in the state before); each phrase of ``story`` as
// [k, value, ...], the page's k-th phrase (``phrases``) with its values in the order of its placeholders (cards
// joined by commas as their list), or as it is when written whole ([template, {name: value}]). Rebuilt, a state
// is the one ``replay --json`` prints, without its English ``narrative`` line (the viewer tells the ``story``).
var ColorettoStates = (function () {
  'use strict';

  // ``old`` with the items ``change`` gives: a whole list, or {"i": item}; each item given read by ``item``.
  function patched(old, change, item) {
    if (Array.isArray(change)) return change.map(item);
    var out = old.slice();
    Object.keys(change).forEach(function (k) { out[Number(k)] = item(change[k], Number(k)); });
    return out;
  }

  function row(r, i) { return {row: i + 1, limit: r[0], cards: r[1], taken: r[2], taken_by: r[3]}; }
  function same(e) { return e; }

  function phrase(p, phrases) {
    if (typeof p[0] === 'string') return p;
    var text = phrases[p[0]], values = {};
    (text.match(/\{\w+\}/g) || []).forEach(function (name, i) {
      var v = p[i + 1];
      values[name.slice(1, -1)] = Array.isArray(v) ? {cards: v, join: 'comma'} : v;
    });
    return [text, values];
  }

  function action(a, before) {
    if (a === null) return null;
    if (a[0] === 'draw') return {player: a[1], action: 'draw', row: a[2], card: a[3], last_round: a[4]};
    return {player: a[1], action: 'take', row: a[2], cards: before.rows[a[2] - 1].cards.slice(), extra: a[3],
            last_round: a[4]};
  }

  // The states of ``game`` ({kinds, entries, changes}), in order; ``phrases``: the page's.
  function rebuild(game, phrases) {
    var kinds = game.kinds, states = [], state = {}, seats = [];
    var entries = game.entries.map(function (e) {
      var collection = {};
      kinds.forEach(function (k, i) { collection[k] = e[1][i]; });
      return {player: e[0], collection: collection, taken: e[2], score: e[3], jokers: e[4], positive: e[5]};
    });
    game.changes.forEach(function (change, n) {
      var before = state, now = {move: n};
      Object.keys(state).forEach(function (k) { if (k !== 'move') now[k] = state[k]; });
      Object.keys(change).forEach(function (k) {
        if (k === 'players') {
          seats = patched(seats, change.players, same);
          now.players = seats.map(function (e) { return entries[e]; });
        } else if (k === 'rows') {
          now.rows = patched(now.rows || [], change.rows, row);
        } else if (k === 'action') {
          now.action = action(change.action, before);
        } else if (k === 'story') {
          now.story = change.story.map(function (p) { return phrase(p, phrases); });
        } else {
          now[k] = change[k];
        }
      });
      states.push(now);
      state = now;
    });
    return states;
  }

  return {rebuild: rebuild};
})();
