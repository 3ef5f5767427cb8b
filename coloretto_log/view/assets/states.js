// A game's states rebuilt from the page's data (docs/replay.md). The page carries each game's states by difference
// (report.timeline.changes_json): ``entries``, the players' distinct entries, and ``changes``, one a state: the
// fields that differ from the state before (the first state's all), ``rows`` and ``players`` as a whole list (a
// player by the index of its entry) or as ``{"i": item}`` for the items that changed. Rebuilt, a state is the
// one ``replay --json`` prints, without its English ``narrative`` line (the viewer tells the ``story``).
var ColorettoStates = (function () {
  'use strict';

  // ``old`` with the items ``change`` gives: a whole list, or {"i": item}.
  function patched(old, change) {
    if (Array.isArray(change)) return change.slice();
    var out = old.slice();
    Object.keys(change).forEach(function (k) { out[Number(k)] = change[k]; });
    return out;
  }

  // The states of ``game`` ({entries, changes}), in order.
  function rebuild(game) {
    var entries = game.entries, states = [], state = {}, seats = [];
    game.changes.forEach(function (change, n) {
      var now = {move: n};
      Object.keys(state).forEach(function (k) { if (k !== 'move') now[k] = state[k]; });
      Object.keys(change).forEach(function (k) {
        if (k === 'players') {
          seats = patched(seats, change.players);
          now.players = seats.map(function (e) { return entries[e]; });
        } else if (k === 'rows') {
          now.rows = patched(now.rows || [], change.rows);
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
