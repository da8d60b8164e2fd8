// The rules page's language. The host serves one page per language, web/rules.<lang>.html (?lang=, else the
// browser's): this script, run in <head>, opens the language the game's pages remember instead when there is no
// ?lang=, remembers one asked for, and lists every catalog the host has as links to its page (a language is one
// catalog and one rules page: nothing here names one).
(function () {
  var KEY = 'quatro.lang';
  var page = document.documentElement.lang || 'en';
  var asked = new URLSearchParams(location.search).get('lang');
  var saved = null;
  try { saved = localStorage.getItem(KEY); } catch (e) { /* storage may be off: the host's pick stands */ }
  if (!asked && saved && saved !== page && saved !== 'pseudo') {
    location.replace('?lang=' + encodeURIComponent(saved)); // that page, or English where there is none
    return;
  }
  if (asked) {
    try { localStorage.setItem(KEY, asked); } catch (e) { /* not remembered */ }
  }
  var words = asked || page; // the frame's words: the catalog asked for ("pseudo" too), else the page's
  var json = function (url) { return fetch(url).then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); }); };
  var ready = new Promise(function (done) { document.addEventListener('DOMContentLoaded', done); });
  Promise.all([json('/i18n/languages.json'), json('/i18n/' + encodeURIComponent(words) + '.json?groups=common,rules'), ready])
    .then(function (got) {
      var languages = got[0];
      var catalog = got[1];
      document.title = catalog.rules.title;
      document.querySelectorAll('nav.langs').forEach(function (nav) {
        nav.setAttribute('aria-label', catalog.common.language);
        languages.forEach(function (l) {
          if (l.code === page && words === page) return;
          var a = document.createElement('a');
          a.className = 'lang-switch';
          a.href = '?lang=' + encodeURIComponent(l.code);
          a.hreflang = l.code;
          a.lang = l.code;
          a.textContent = l.name;
          nav.append(a);
        });
        nav.hidden = false;
      });
    })
    .catch(function () { /* the host is away: the page reads on, without the other languages */ });
})();
