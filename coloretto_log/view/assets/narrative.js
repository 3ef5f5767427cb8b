// The narrative line of a move in the page's language (docs/languages.md). The replay's data gives each state
// its story (report.timeline's phrases): an English template with {name} placeholders and their values. Each
// template is looked up in the page's catalogue by its English text and filled as text: names and numbers as
// they are, cards by their names in the language, joined by the language's list words.
var ColorettoNarrative = (function () {
  'use strict';

  function value(v, t, word) {
    if (v && typeof v === 'object' && Array.isArray(v.cards)) {
      return v.cards.map(word).join(t(v.join === 'and' ? ' and ' : ', '));
    }
    if (v && typeof v === 'object' && Array.isArray(v.hands)) {
      return v.hands.map(function (h) {
        return t('{player} {cards}', {player: String(h[0]), cards: h[1].map(word).join(t(' and '))});
      }).join(t(', '));
    }
    return String(v);
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

  return {tell: tell};
})();
