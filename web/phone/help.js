// The help sheet, always one tap away (the ? in the top bar): the rules (the host's /rules page, inside the sheet),
// "Show hints again", the language. It opens over the table: the page underneath keeps its seat, its hand and its
// socket, and goes on receiving the game while the sheet is open.
import { $, h } from './dom.js';
import { overlayChanged } from './modal.js';
import { t, loadLaterWords } from './strings.js';
import { language } from '../common/i18n.js';
import { languagePicker } from '../common/lang-picker.js';
import { styles } from './later.js';

await loadLaterWords(); // its words come with it

await styles('help'); // its own stylesheet, applied before it draws

let hooks = { coach: () => null };
/** The composition root tells the sheet how to reach the coach (it may not be loaded yet). */
export function setHelpHooks(h2) {
  hooks = { ...hooks, ...h2 };
}

export function openHelp() {
  closeHelp();
  const lang = language();
  const coach = hooks.coach();
  const sheet = h('div', { id: 'help-sheet', class: 'help-sheet', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-title' },
    h('div', { class: 'help-box' },
      h('div', { class: 'help-head' },
        h('h2', { id: 'help-title', text: t('help_title') }),
        h('button', { type: 'button', class: 'btn ghost', id: 'help-close', onclick: closeHelp }, t('close'))),
      rulesBox(lang),
      h('div', { class: 'help-actions' },
        h('button', {
          type: 'button', class: 'btn', id: 'help-hints', disabled: !coach,
          onclick: () => { const c = hooks.coach(); if (c) { c.reset(); $('help-hints').textContent = t('hints_back'); } },
        }, t('show_hints')),
        h('label', { class: 'btn ghost help-lang' }, h('span', { text: t('language') }), picker()),
        h('a', { class: 'btn ghost', id: 'help-rules-link', href: `/rules?lang=${lang}`, target: '_blank', rel: 'noopener' }, t('rules_tab')))));
  document.getElementById('app').append(sheet);
  $('help-close').focus({ preventScroll: true });
  overlayChanged();
}

// The language, listed as in the top bar; a pick redraws the sheet in it.
function picker() {
  const select = h('select', { id: 'help-lang' });
  languagePicker(select, { live: false, onPick: () => openHelp() });
  return select;
}

// The host's /rules page, its article in this language, drawn inside the sheet (the host forbids framing its
// pages): a shadow root keeps the rules' styles and the phone's apart.
function rulesBox(lang) {
  // it scrolls: a keyboard can reach it and scroll it too
  const box = h('div', { id: 'help-rules', class: 'help-rules', role: 'document', 'aria-label': t('rules_title'), tabindex: '0' });
  const root = box.attachShadow({ mode: 'open' });
  root.append(h('link', { rel: 'stylesheet', href: '/rules.css' }));
  fetch(`/rules?lang=${lang}`, { cache: 'no-store' }).then((res) => (res.ok ? res.text() : Promise.reject(res.status)))
    .then((html) => {
      // Its inline handlers (the page's own language links) are left out before parsing: no inline script here.
      const doc = new DOMParser().parseFromString(html.replace(/\son[a-z]+="[^"]*"/g, ''), 'text/html');
      const article = doc.querySelector(`article[lang="${lang}"]`) || doc.querySelector('article');
      if (!article) return;
      for (const el of article.querySelectorAll('script, .lang-switch, nav.langs')) el.remove();
      root.append(h('div', { class: 'rules-in-sheet' }, document.importNode(article, true)));
    })
    .catch(() => root.append(h('p', { text: t('rules_title') })));
  return box;
}

export function closeHelp() {
  const old = document.getElementById('help-sheet');
  if (old) { old.remove(); overlayChanged(); }
}
