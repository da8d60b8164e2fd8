// The host let this seat move to another device: the one-time link as a QR code the other phone scans (drawn by
// the host: no internet, no QR library here), as text, and with a Copy button.
import { $, h } from './dom.js';
import { t, loadLaterWords } from './strings.js';
import { openModal } from './modal.js';
import { styles } from './later.js';

await styles('seatlink'); // its own stylesheet, applied before it draws
await loadLaterWords(); // its words come with it

export function showSeatLink(msg) {
  const qr = h('img', { class: 'link-qr', alt: t('seat_link_qr') });
  const minutes = Math.max(1, Math.round((msg.expires_in || 0) / 60));
  openModal('seat_link', {
    title: t('seat_link_title'), text: `${t('seat_link_text', { min: minutes })}\n${msg.url}`, cls: 'link',
    extra: h('div', { class: 'link-qr-box' }, qr), // its white square holds the place while the code comes
    actions: [
      { id: 'copy', label: t('copy'), keep: true, run: () => copyLink(msg.url) },
      { id: 'close', label: t('ok'), cls: 'primary' },
    ],
  });
  $('modal-text').classList.add('selectable');
  seatLinkQr(msg.url).then((src) => {
    if (!src) { const box = $('modal').querySelector('.link-qr-box'); if (box) box.remove(); return; } // text and Copy still work
    if (!qr.isConnected) { URL.revokeObjectURL(src); return; } // the box was closed meanwhile
    qr.src = src;
    qr.classList.add('shown');
  });
}

async function seatLinkQr(url) {
  // The secret goes in a POST body, never in an <img src> query (access log, history, cache): see POST
  // /seat-link/qr.png in docs/protocol.md. The host draws only a live seat link of its own.
  try {
    const res = await fetch('/seat-link/qr.png', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url }), cache: 'no-store',
    });
    return res.ok ? URL.createObjectURL(await res.blob()) : null;
  } catch {
    return null;
  }
}

async function copyLink(url) {
  const btn = $('modal-actions').querySelector('[data-action="copy"]');
  let done = false;
  // The Clipboard API exists only on a secure origin; a phone on the LAN opens plain http. Then the old way (from a
  // tap it still works in most browsers), and if even that fails the link is left selected for the phone's own Copy.
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(url); done = true; } catch { /* below */ }
  }
  if (!done) {
    const text = $('modal-text');
    const start = text.textContent.indexOf(url);
    const range = document.createRange();
    range.setStart(text.firstChild, Math.max(0, start));
    range.setEnd(text.firstChild, start < 0 ? text.textContent.length : start + url.length);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    try { done = document.execCommand('copy'); } catch { done = false; }
    if (done) sel.removeAllRanges();
  }
  if (btn && btn.isConnected) btn.textContent = done ? t('copied') : t('link_selected');
}
