// The page's words in the languages it was written with, switched without the network
// (docs/languages.md). The catalogue is lang.page_catalogue's: {lang: {name, plural, messages}},
// a message a string or, when counted, {CLDR category: text} chosen with Intl.PluralRules.
// The page starts in ?lang=xx when it has that language, else in the first it was written with.
var ColorettoI18n = (function () {
  'use strict';

  function fill(text, values) {
    return String(text).replace(/\{([a-z_]+)\}/g, function (all, key) {
      return values && Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }

  function create(catalogue, langs) {
    var tr = {langs: langs.filter(function (l) { return catalogue[l]; }), lang: 'en', listeners: []};
    if (!tr.langs.length) tr.langs = ['en'];
    var asked = /[?&]lang=([a-z]+)/.exec(location.search);
    tr.lang = asked && tr.langs.indexOf(asked[1]) >= 0 ? asked[1] : tr.langs[0];

    function table() { return (catalogue[tr.lang] || {}).messages || {}; }

    // A number as the language writes it (English: as the page's data has it, like the Python side).
    tr.num = function (n) {
      if (tr.lang === 'en' || typeof n !== 'number' || !isFinite(n)) return String(n);
      try { return new Intl.NumberFormat(tr.lang).format(n); } catch (e) { return String(n); }
    };
    // ``message`` in the current language, its {name} placeholders filled.
    tr.t = function (message, values) {
      var found = table()[message];
      return fill(typeof found === 'string' && found ? found : message, values);
    };
    // The form of a counted message for n ({n} is n in the language's digits).
    tr.nt = function (singular, plural, n, values) {
      var forms = table()[singular];
      var text = null;
      if (forms && typeof forms === 'object') {
        var cat = 'other';
        try { cat = new Intl.PluralRules(tr.lang).select(n); } catch (e) { cat = n === 1 ? 'one' : 'other'; }
        text = forms[cat] || forms.other;
      }
      if (!text) text = n === 1 ? singular : plural;
      var all = {n: tr.num(n)};
      for (var k in values) if (Object.prototype.hasOwnProperty.call(values, k)) all[k] = values[k];
      return fill(text, all);
    };
    // A number written the Python way ("-1.5", "+2") with the language's symbols (catalogue's "number"):
    // the same digits as the data, as lang.Translator.decimal writes them.
    tr.decimal = function (text) {
      var sym = (catalogue[tr.lang] || {}).number;
      if (!sym) return String(text);
      return String(text).replace(/[.+-]/g, function (c) { return c === '.' ? sym.decimal : c === '-' ? sym.minus : sym.plus; });
    };
    // The form of a counted message for a count written as a decimal ("1.0", "2.5"): CLDR's category of the
    // number as written (1.0 is not "one"), as lang.Translator.nd chooses it; {n} is the count in the
    // language's symbols.
    tr.nd = function (singular, plural, written, values) {
      written = String(written);
      var bare = written.replace(/^[+-]/, '');
      var digits = (bare.split('.')[1] || '').length;
      var forms = table()[singular];
      var text = null;
      if (forms && typeof forms === 'object') {
        var cat = 'other';
        try {
          cat = new Intl.PluralRules(tr.lang, {minimumFractionDigits: digits, maximumFractionDigits: digits}).select(Number(bare));
        } catch (e) { cat = bare === '1' ? 'one' : 'other'; }
        text = forms[cat] || forms.other;
      }
      if (!text) text = bare === '1' ? singular : plural;
      var all = {n: tr.decimal(written)};
      for (var k in values) if (Object.prototype.hasOwnProperty.call(values, k)) all[k] = values[k];
      return fill(text, all);
    };
    // ``message`` in the current language with its placeholders left in (to see where a value stands).
    tr.template = function (message) {
      var found = table()[message];
      if (found && typeof found === 'object') found = found.other;
      return typeof found === 'string' && found ? found : message;
    };
    // Static words of the page: data-t (text), data-t-title, data-t-aria (aria-label).
    tr.apply = function (root) {
      document.documentElement.lang = tr.lang;
      (root || document).querySelectorAll('[data-t]').forEach(function (e) { e.textContent = tr.t(e.getAttribute('data-t')); });
      (root || document).querySelectorAll('[data-t-title]').forEach(function (e) { e.title = tr.t(e.getAttribute('data-t-title')); });
      (root || document).querySelectorAll('[data-t-aria]').forEach(function (e) {
        e.setAttribute('aria-label', tr.t(e.getAttribute('data-t-aria')));
      });
    };
    tr.set = function (lang) {
      if (tr.langs.indexOf(lang) < 0 || lang === tr.lang) return;
      tr.lang = lang;
      tr.apply();
      tr.listeners.forEach(function (f) { f(lang); });
    };
    tr.onChange = function (f) { tr.listeners.push(f); };
    // Buttons to switch language in ``box`` (nothing with one language): each in its own name.
    tr.switcher = function (box) {
      if (!box) return;
      box.replaceChildren();
      box.hidden = tr.langs.length < 2;
      tr.langs.forEach(function (lang) {
        var b = document.createElement('button');
        b.type = 'button';
        b.lang = lang;
        b.setAttribute('data-lang', lang);
        b.textContent = catalogue[lang].name;
        b.setAttribute('aria-pressed', String(lang === tr.lang));
        b.addEventListener('click', function () { tr.set(lang); });
        box.appendChild(b);
      });
      tr.onChange(function (now) {
        box.querySelectorAll('button').forEach(function (b) {
          b.setAttribute('aria-pressed', String(b.getAttribute('data-lang') === now));
        });
      });
    };
    return tr;
  }

  return {create: create, fill: fill};
})();
