// The rules page's language: run in <head> (before the articles are drawn), so the page opens in its language.
// One page, both languages: ?lang=fr|en first, then the language the game's pages remember, then the browser's.
(function () {
  var asked = new URLSearchParams(location.search).get('lang');
  var saved = null;
  try { saved = localStorage.getItem('quatro.lang'); } catch (e) { /* storage may be off: the browser decides */ }
  var langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  var browser = String(langs[0] || 'en').toLowerCase().indexOf('fr') === 0 ? 'fr' : 'en';
  var lang = asked === 'fr' || asked === 'en' ? asked : saved === 'fr' || saved === 'en' ? saved : browser;
  document.documentElement.lang = lang;
  document.documentElement.dataset.lang = lang;
  document.title = lang === 'fr' ? 'Quatro Party — comment jouer' : 'Quatro Party — how to play';
  var switchTo = function (next) {
    document.documentElement.lang = next;
    document.documentElement.dataset.lang = next;
    document.title = next === 'fr' ? 'Quatro Party — comment jouer' : 'Quatro Party — how to play';
    try { localStorage.setItem('quatro.lang', next); } catch (e) { /* not remembered, still switched */ }
    var url = new URL(location.href);
    url.searchParams.set('lang', next);
    history.replaceState(null, '', url);
  };
  // The switch links work without script (?lang=…); with it, the page switches in place and remembers.
  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('a.lang-switch').forEach(function (a) {
      a.addEventListener('click', function (e) {
        e.preventDefault();
        switchTo(a.getAttribute('hreflang'));
      });
    });
  });
})();
