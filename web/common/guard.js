// A question that opens under a finger must not take that finger for its answer (the release of the press that
// opened it, a double tap's second tap): its answers start disabled and come alive a beat later, with a fill that
// shows them arming. The phone's dialog arms its own; armNewConfirmations arms boxes another module draws.

/** How long a new question's answers ignore input: longer than a thumb's release, shorter than reading it. */
export const ARM_MS = 700;

const armedUntil = new WeakMap(); // button → when its arming ends

/** Disable `buttons` for `ms` (one already disabled for its own reason stays so). */
export function arm(buttons, ms = ARM_MS) {
  const until = performance.now() + ms;
  const mine = buttons.filter((b) => !b.disabled || armedUntil.has(b));
  for (const b of mine) {
    armedUntil.set(b, until);
    b.disabled = true;
    b.classList.add('arming');
    b.style.setProperty('--arm', `${ms}ms`);
  }
  setTimeout(() => {
    for (const b of mine.filter((x) => armedUntil.get(x) === until)) {
      armedUntil.delete(b);
      b.disabled = false;
      b.classList.remove('arming');
    }
  }, ms);
}

/** Arm the buttons of each new `selector` box under `root`; a redraw of the same question keeps its arming. */
export function armNewConfirmations(root, selector, ms = ARM_MS) {
  let shown = null;
  let armEnd = 0;
  new MutationObserver(() => {
    const box = root.querySelector(selector);
    if (!box) { shown = null; return; }
    if (box.dataset.armed === '1') return;
    box.dataset.armed = '1';
    const buttons = [...box.querySelectorAll('button')];
    if (box.textContent !== shown) {
      shown = box.textContent;
      armEnd = performance.now() + ms;
      arm(buttons, ms);
    } else if (armEnd > performance.now()) arm(buttons, armEnd - performance.now());
  }).observe(root, { childList: true, subtree: true });
}
