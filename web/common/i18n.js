// The pages' words: web/i18n/<lang>.json (docs/translating.md). The language: ?lang=, else the player's pick,
// else the table's (followTable), else the browser's, else English. "pseudo": tests.

const KEY = 'quatro.lang';
const PSEUDO = 'pseudo';
const listeners = new Set();
const catalogs = {}; // lang → {_meta, group → sentences}
const wanted = new Set(); // this page's groups
let known = [{ code: 'en', name: 'English' }];
let current = 'en';
let listed = null;
let started = false;

const usable = (lang) => lang === PSEUDO || known.some((l) => l.code === lang);
const locale = () => (current === PSEUDO ? 'en' : current);

export const languages = () => known;
export const language = () => current;

// this page's own choice (?lang= or its player's pick), else null
export function chosenLanguage() {
  let saved = new URLSearchParams(location.search).get('lang');
  try { saved = saved || localStorage.getItem(KEY); } catch (e) { /* off */ }
  return saved && usable(saved) ? saved : null;
}

function listLanguages() {
  listed = listed || fetch('/i18n/languages.json').then((r) => (r.ok ? r.json() : known))
    .then((list) => { known = list; }, () => {});
  return listed;
}

async function load(lang, groups) {
  const have = catalogs[lang] || {};
  const missing = groups.filter((g) => !have[g]);
  if (!missing.length) return;
  const res = await fetch(`/i18n/${lang}.json?groups=${missing.join(',')}`);
  if (!res.ok) throw new Error(`no catalog for ${lang}`);
  const got = await res.json(); // merged now: other groups may have come meanwhile
  catalogs[lang] = { ...catalogs[lang], ...got };
  for (const g of missing) catalogs[lang][g] = catalogs[lang][g] || {};
}

export async function startLanguage(groups) {
  started = true;
  await listLanguages();
  groups.forEach((g) => wanted.add(g));
  let lang = chosenLanguage();
  for (const l of lang ? [] : navigator.languages || [navigator.language]) {
    const code = String(l).toLowerCase().split('-')[0];
    if (!lang && usable(code)) lang = code;
  }
  current = lang || 'en';
  await load(current, groups).catch(() => { current = 'en'; return load('en', groups); });
  document.documentElement.lang = locale();
}

// more groups (a rarer screen), kept in every later language
export async function loadGroups(groups) {
  if (!started) return startLanguage(groups); // a module alone (a test's harness)
  groups.forEach((g) => wanted.add(g));
  return load(current, groups);
}

// pick: its player chose it (remembered: it wins over the table's)
export async function setLanguage(lang, { pick = true } = {}) {
  await listLanguages();
  if (!usable(lang)) return;
  await load(lang, [...wanted]);
  if (pick) try { localStorage.setItem(KEY, lang); } catch (e) { /* off */ }
  if (lang === current) return;
  current = lang;
  document.documentElement.lang = locale();
  listeners.forEach((f) => f(current));
}

export function followTable(lang) {
  if (lang && lang !== current && !chosenLanguage() && usable(lang)) setLanguage(lang, { pick: false });
}

export function onLanguageChange(f) {
  listeners.add(f);
}

// 1.5 / 1,5
export function formatNumber(x, digits = null) {
  const d = digits ?? 2;
  return new Intl.NumberFormat(locale(), { minimumFractionDigits: digits ?? 0, maximumFractionDigits: d }).format(x);
}

function fill(s, vars) {
  return s.replace(/\{(\w+)(?:\|(\w+))?\}/g, (whole, k, f) => {
    if (vars[k] == null) return whole;
    let v = typeof vars[k] === 'number' ? formatNumber(vars[k]) : String(vars[k]);
    const rule = f && (((catalogs[current] || {})._meta || {}).filters || {})[f]?.find(([re]) => new RegExp(re).test(v));
    if (rule) v = v.replace(new RegExp(rule[0]), rule[1]);
    return v;
  });
}

// t(key, vars): from the first of groups that has key
export function translator(groups) {
  return function t(key, vars = {}) {
    const cat = catalogs[current] || {};
    for (const g of groups) {
      let s = cat[g] && cat[g][key];
      if (s == null) continue;
      if (typeof s === 'object') {
        const n = Number(vars.n);
        s = s[`=${n}`] ?? s[new Intl.PluralRules(locale()).select(n)] ?? s.other;
      }
      return fill(s, vars);
    }
    return key;
  };
}

const common = translator(['common']);

export function joinList(items) {
  if (items.length <= 1) return items.join('');
  return common('and', { a: items.slice(0, -1).reduce((a, b) => common('list', { a, b })), b: items.at(-1) });
}

// a colour as a name (Blue), or after the word team (French: verte)
export const teamWord = (team, after = false) => common(`team${after ? '_after' : ''}_${team}`);
