// The attract loop's geometry (screen/attract.js draws with it): two layouts, the sizes of a box, and where each
// plate, hand, card, burst and bubble of the little table goes in it. Pure arithmetic on the box's size.

// Two layouts, each designed at a base size and scaled to the root's size: `full` for a root as large as the
// TV's table area (a little table of its own, felt included), `compact` for a box between the TV's own seat
// plates (about 700×490 at 1920×1080: no felt, it lies on the TV's; fewer, larger words). `tableH` is the least
// height the table above the caption band takes at scale 1 (compact: the phone tag sits beside a hand, not
// between it and the centre, so the table packs tighter).
export const LAYOUTS = {
  full: {
    baseW: 1300, baseH: 900, tableH: 772, captionFont: 30, titleFont: 26, titleW: 330,
    mini: { w: 58, h: 82, gap: 6 }, big: { w: 112, h: 160, gap: 18 },
    plate: { w: 250, h: 92 }, plateTop: 64, plateBottom: 54, plateSide: 150, handGap: 12,
    burst: 220, bubble: { w: 230, h: 70 }, badge: 68, phone: { w: 300, h: 30, gap: 20 },
  },
  compact: {
    baseW: 600, baseH: 440, tableH: 310, captionFont: 21, titleFont: 16, titleW: 200,
    mini: { w: 30, h: 42, gap: 4 }, big: { w: 58, h: 82, gap: 8 },
    plate: { w: 150, h: 46 }, plateTop: 26, plateBottom: 26, plateSide: 80, handGap: 6,
    burst: 110, bubble: { w: 140, h: 42 }, badge: 40, phone: { w: 190, h: 22, gap: 12 },
  },
};
// Below this root size the compact layout reads better than the full one shrunk. The size is in pixels of a
// 1920×1080 window: the TV page scales itself to the window, so a box is small or large relative to it (the
// same box is 600 px wide at 1080p and 1200 px at 4K, and must get the same layout).
const COMPACT_BELOW = { w: 900, h: 650 };
const WINDOW = { w: 1920, h: 1080 };
// The caption is what the room reads, from a sofa 3 m away: never smaller than this share of the window's height,
// however small the box. The band grows to hold it and the little table shrinks instead.
const CAPTION_LEAST = 0.025;
// The title, too, is read from the sofa: never smaller than this share of the window's height. It alone grows
// (not the little table), wrapping in the corner left of the top plate. The score chips ride in the caption
// band, in proportion to the sentence (attract.css), so they share its least size.
export const TITLE_LEAST = 0.022;
// Those shares are of the stage's height in window pixels: the window's, or on a window taller than 16:9 (4:3,
// 5:4, 16:10) the 16:9 height of its width, since the stage is width-bound there (layout.js) and the same width
// holds the same words.
export const stageHeight = () => Math.min(window.innerHeight, (window.innerWidth * WINDOW.h) / WINDOW.w);

/** The sizes of a box `r` (a DOMRect): the caption's size first (the layout's own, or the readable least), then
 * the band it needs (`bandHeight(font, width, side)`: the player measures its sentences), then the scale of the
 * little table in what is left above it. */
export function measure(r, bandHeight) {
  const k = Math.min(window.innerWidth / WINDOW.w, window.innerHeight / WINDOW.h) || 1;
  const L = r.width < COMPACT_BELOW.w * k || r.height < COMPACT_BELOW.h * k ? LAYOUTS.compact : LAYOUTS.full;
  const s0 = Math.min(r.width / L.baseW, r.height / L.baseH) || 1;
  const font = Math.max(L.captionFont * s0, CAPTION_LEAST * stageHeight());
  const margin = L === LAYOUTS.full ? { side: 20 * s0, bottom: 8 * s0 } : { side: 0, bottom: 0 };
  const bandH = bandHeight(font, r.width, margin.side);
  const T = r.height - bandH - margin.bottom;
  const s = Math.min(r.width / L.baseW, T / L.tableH) || 1;
  return { W: r.width, H: r.height, T, L, s, font, bandH, margin };
}

/** Where everything of the little table goes in a box of `size` (from `measure`). */
export function geometry(size) {
  const { W, H, T, L, s, font, bandH, margin } = size; // T: the table's height, above the caption band
  const P = L.plate;
  const plate = [
    { x: W / 2, y: T - L.plateBottom * s }, { x: L.plateSide * s, y: T / 2 },
    { x: W / 2, y: L.plateTop * s }, { x: W - L.plateSide * s, y: T / 2 },
  ];
  const off = (P.h / 2 + L.handGap + L.mini.h / 2) * s; // plate centre to hand centre
  const handY = [plate[0].y - off, T / 2 + off, plate[2].y + off, T / 2 + off];
  const hand = (seat, slot) => ({
    x: plate[seat].x + (slot - 1.5) * (L.mini.w + L.mini.gap) * s, y: handY[seat], w: L.mini.w * s, h: L.mini.h * s,
  });
  const place = (i) => ({
    x: W / 2 + (i - 1.5) * (L.big.w + L.big.gap) * s, y: T / 2, w: L.big.w * s, h: L.big.h * s,
  });
  // an emission bursts beside the seat's hand (full) or over it (compact: no room beside)
  const burst = L === LAYOUTS.full
    ? [{ x: W / 2 - 275 * s, y: handY[0] - 10 * s }, { x: 320 * s, y: T / 2 - 150 * s },
      { x: W / 2 + 275 * s, y: handY[2] + 10 * s }, { x: W - 320 * s, y: T / 2 - 150 * s }]
    : [0, 1, 2, 3].map((seat) => ({ x: plate[seat].x, y: handY[seat] }));
  const beside = (P.w / 2 + L.bubble.w / 2 + 12) * s;
  const above = (P.h / 2 + L.bubble.h / 2 + 8) * s;
  const bubble = [
    { x: W / 2 + beside, y: plate[0].y }, { x: plate[1].x, y: T / 2 - above },
    // compact: beside the top hand, not the top plate, which shares its height with Skip
    { x: W / 2 + beside, y: L === LAYOUTS.full ? plate[2].y : handY[2] }, { x: plate[3].x, y: T / 2 - above },
  ];
  return { W, H, T, s, L, plate, hand, place, burst, bubble, font, bandH, margin };
}

/** Put `node` centred on (x, y), w × h: left/top only (never a transform: the reduced-motion loop must use none). */
export function put(node, x, y, w, h) {
  node.style.left = `${x - w / 2}px`;
  node.style.top = `${y - h / 2}px`;
  node.style.width = `${w}px`;
  node.style.height = `${h}px`;
}
