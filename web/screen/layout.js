// One layout for every screen: the page is drawn on a stage of at least 1920×1080 design pixels, scaled to the
// window (transform: scale), so a 1280×720 laptop, a 1080p TV and a 4K TV at device pixel ratio 1 all read
// alike and nothing scrolls. The stage takes the window's shape (wider or taller than 16:9 gives more room on
// that side), and every size in screen.css is in design pixels.
import { $ } from './dom.js';

const DESIGN_W = 1920;
const DESIGN_H = 1080;
let scale = 1;

export function fit() {
  const root = $('#root');
  const W = window.innerWidth;
  const H = window.innerHeight;
  scale = Math.min(W / DESIGN_W, H / DESIGN_H);
  root.style.width = `${W / scale}px`;
  root.style.height = `${H / scale}px`;
  root.style.transform = `scale(${scale})`;
  document.documentElement.style.setProperty('--stage-scale', String(scale));
  return scale;
}

export const stageScale = () => scale;

// A box on the window (getBoundingClientRect) in design pixels relative to `origin` (a node on the stage).
export function stageBox(rect, origin) {
  const o = origin.getBoundingClientRect();
  return {
    x: (rect.left - o.left + rect.width / 2) / scale,
    y: (rect.top - o.top + rect.height / 2) / scale,
    w: rect.width / scale,
    h: rect.height / scale,
    left: (rect.left - o.left) / scale,
    top: (rect.top - o.top) / scale,
    right: (rect.right - o.left) / scale,
    bottom: (rect.bottom - o.top) / scale,
  };
}
