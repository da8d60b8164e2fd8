// Tiny i18n: French and English, picked from the browser, switchable, remembered.
//   const t = makeI18n({en: {...}, fr: {...}});  t('key', {n: 3});  setLanguage('fr');

const STORAGE_KEY = 'quatro.lang';
const listeners = new Set();
let current = null;

export function browserLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved === 'fr' || saved === 'en') return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  return langs.some((l) => String(l).toLowerCase().startsWith('fr')) &&
    !String(langs[0]).toLowerCase().startsWith('en') ? 'fr' : 'en';
}

export function language() {
  if (!current) current = browserLanguage();
  return current;
}

export function setLanguage(lang) {
  current = lang === 'fr' ? 'fr' : 'en';
  localStorage.setItem(STORAGE_KEY, current);
  document.documentElement.lang = current;
  listeners.forEach((f) => f(current));
}

export function onLanguageChange(f) {
  listeners.add(f);
}

export function makeI18n(dicts) {
  return function t(key, vars = {}) {
    // A page may load its languages one at a time (the phone does): look up what is there, else the key itself.
    const table = dicts[language()] || dicts.en || {};
    const s = table[key] ?? (dicts.en || {})[key] ?? key;
    if (typeof s === 'function') return s(vars);
    return s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? `{${k}}`));
  };
}
