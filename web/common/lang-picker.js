// A language picker: a <select> of every catalog the host has (each named in its own language) that switches the
// page on a pick. Inside a <label class="lang">, a `.lang-code` shows the current code (EN) with the select laid
// over it, invisible, so that the top bars keep a small button. Loaded after the page is up (the phone's weight).
import { languages, language, setLanguage, onLanguageChange, translator } from './i18n.js';

const common = translator(['common']);
const isPseudo = () => language() === 'pseudo';

/** Fill `select` and switch on a pick (then `onPick(lang)`); `live`: it follows later changes. */
export function languagePicker(select, { onPick = null, live = true } = {}) {
  const code = select.parentElement && select.parentElement.querySelector('.lang-code');
  const draw = () => {
    const list = isPseudo() ? [...languages(), { code: 'pseudo', name: '⟦Pseudo⟧' }] : languages();
    const sig = `${language()}|${list.map((l) => l.code)}`;
    if (select.dataset.sig !== sig) {
      select.replaceChildren(...list.map(({ code: c, name }) => Object.assign(new Option(name, c), { lang: c })));
      select.dataset.sig = sig;
    }
    select.value = language();
    if (code) code.textContent = isPseudo() ? '⟦⟧' : language().toUpperCase();
    select.setAttribute('aria-label', common('language'));
  };
  draw();
  if (live) onLanguageChange(draw);
  select.addEventListener('change', async () => {
    await setLanguage(select.value);
    if (onPick) onPick(select.value);
  });
  return draw;
}
