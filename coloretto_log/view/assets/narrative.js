// The narrative line of a move in the page's language (docs/languages.md). The replay's data gives each state
// its story (report.timeline's phrases): an English template with {name} placeholders and their values. Each
// template is looked up in the page's catalogue by its English text and filled as text: names and numbers as
// they are, cards by their names in the language, joined by the language's list words. A name (any text value)
// is isolated (U+2068 ... U+2069, its own isolates and controls shown as escapes): no character in one name
// turns the names and words around it.
var ColorettoNarrative = (function () {
  'use strict';

  // A name as text: its control, line-breaking and isolating characters as escapes (\x07, \u2069), the rest
  // (a right-to-left override too) kept inside one isolate, where it ends.
  function iso(name) {
    return '\u2068' + String(name).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u2066-\u2069]/g, function (c) {
      var code = c.charCodeAt(0);
      return code < 256 ? '\\x' + ('0' + code.toString(16)).slice(-2) : '\\u' + code.toString(16);
    }) + '\u2069';
  }

  function value(v, t, word) {
    if (v && typeof v === 'object' && Array.isArray(v.cards)) {
      return v.cards.map(word).join(t(v.join === 'and' ? ' and ' : ', '));
    }
    if (v && typeof v === 'object' && Array.isArray(v.hands)) {
      return v.hands.map(function (h) {
        return t('{player} {cards}', {player: iso(h[0]), cards: h[1].map(word).join(t(' and '))});
      }).join(t(', '));
    }
    return typeof v === 'string' ? iso(v) : String(v);
  }

  // ``story``: [[template, {name: value}], ...]; ``t`` the page's translator, ``word`` a card's name in it.
  function tell(story, t, word) {
    return story.map(function (phrase) {
      var given = phrase[1] || {};
      var values = {};
      Object.keys(given).forEach(function (k) { values[k] = value(given[k], t, word); });
      return t(phrase[0], values);
    }).join(' \u00b7 ');
  }

  return {tell: tell, iso: iso};
})();
