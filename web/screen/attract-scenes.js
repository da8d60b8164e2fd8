// The attract loop's story (screen/attract.js plays it): its four players, its three
// scripted deals and its scenes, each a list of steps over the player's verbs (state, caption, swap, carre, lamp,
// burst, call, reveal, score). The player draws; this file says what happens.
//
// The story (about 80 s): partners sit opposite; everybody swaps with the centre; the first player (a) builds a
// carré; she takes her channel and flashes Blue's sign, which everybody sees; her partner (c) holds Quatro!; the
// reveal. Next round (b)'s sign is cracked by (a)'s Contre!; then (b) flashes a decoy and (a)'s false Contre! gives
// Orange the point. Then one line on how the game ends, and again.
//
// The players' names are an example's, never a seated player's: each role has a few names (the French sentences
// agree with the role: a and c "she", b "he"), and the player takes, for each role, the first one that reads like
// no seated player's name (demoNames).

// Seats 0 to 3 (R2: 0 and 2 are Blue, 1 and 3 Orange); each role's names, the usual first.
const ROLE_NAMES = [['Ana', 'Léa', 'Nina', 'Zoé'], ['Bruno', 'Marc', 'Omar', 'Théo'], ['Chloé', 'Inès', 'Rose', 'Lina'],
  ['Dev', 'Sami', 'Hugo', 'Noé']];
export const TEAM_OF = [0, 1, 0, 1];

// What two names must differ in, as the server compares them (not case, accents or spacing: "Chloé" = "chloe ").
const nameKey = (name) => String(name).normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/\s+/)
  .filter(Boolean).join(' ');

/** The four players' names: for each role, the first that reads like none of `taken` (the seated players'). */
export function demoNames(taken = []) {
  const used = new Set(taken.filter(Boolean).map(nameKey));
  return ROLE_NAMES.map((pool) => {
    let name = pool.find((n) => !used.has(nameKey(n)));
    for (let n = 2; !name; n++) name = pool.map((p) => `${p} ${n}`).find((p) => !used.has(nameKey(p)));
    used.add(nameKey(name));
    return name;
  });
}

// Three scripted deals of a 4-seat table (R4: A K Q J 10, 20 cards; R6: no hand dealt three of a rank).
export const DEALS = [
  { hands: [['K♠', 'K♥', '10♣', 'J♦'], ['Q♠', 'Q♥', 'A♣', '10♥'], ['A♠', 'J♠', '10♠', 'Q♦'], ['J♥', 'A♥', '10♦', 'Q♣']],
    centre: ['K♦', 'J♣', 'A♦', 'K♣'], signs: ['🦊', '🌵'] },
  { hands: [['A♠', 'J♥', '10♦', 'K♣'], ['Q♠', 'Q♥', 'J♣', 'A♦'], ['K♠', '10♠', 'A♣', 'J♦'], ['K♥', '10♥', 'J♠', 'A♥']],
    centre: ['Q♦', 'K♦', 'Q♣', '10♣'], signs: ['🍉', '🐙'] },
  { hands: [['K♠', 'K♥', 'J♦', '10♣'], ['A♠', 'A♥', 'Q♣', 'J♠'], ['Q♠', '10♥', 'J♣', 'A♦'], ['Q♥', '10♠', 'K♦', 'J♥']],
    centre: ['A♣', 'Q♦', 'K♣', '10♦'], signs: ['🍄', '🚀'] },
];

// Scenes: [name, duration in ms (or a function of the emission period in ms), function(scene) scheduling its
// steps]. Each starts from a complete state, so start(name) can open at any scene.
export const SCENES = [
  ['intro', 8000, (s) => {
    s.state({ deal: 0, scores: [0, 0] });
    s.caption('intro');
    s.at(1200, () => s.partners(true));
    s.at(6800, () => s.partners(false));
  }],
  ['swap', 12000, (s) => {
    s.state({ deal: 0, scores: [0, 0], focus: 0 });
    s.caption('swap');
    s.at(1400, () => s.swap(0, '10♣', 0));
    s.at(3600, () => s.swap(3, '10♦', 1));
    s.at(6200, () => s.swap(0, 'J♦', 3));
    s.at(7200, () => { s.carre(0, true); s.caption('carre'); });
  }],
  // A held channel flashes once per emission period (R18): the flashes keep the view's pace, and the scene lasts
  // long enough to show a second one however long the host made the period.
  ['channel', (period) => Math.max(11000, 2200 + period + 2000), (s) => {
    s.state({ deal: 0, swaps: [[0, '10♣', 0], [3, '10♦', 1], [0, 'J♦', 3]], scores: [0, 0], focus: 0, carre: [0] });
    s.caption('channel');
    s.at(900, () => s.lamp(0, true));
    for (let at = 2200; at === 2200 || at <= s.length - 1700; at += s.period) s.at(at, () => s.burst(0, '🦊'));
    s.at(5200, () => s.caption('everybody'));
  }],
  ['quatro', 6500, (s) => {
    s.state({ deal: 0, swaps: [[0, '10♣', 0], [3, '10♦', 1], [0, 'J♦', 3]], scores: [0, 0], focus: 2, carre: [0],
      lamps: [[0, '🦊']] });
    s.caption('quatro');
    s.at(700, () => s.call(2, 'quatro'));
  }],
  ['reveal', 8000, (s) => {
    s.state({ deal: 0, swaps: [[0, '10♣', 0], [3, '10♦', 1], [0, 'J♦', 3]], scores: [0, 0], carre: [0],
      called: [2, 'quatro'] });
    s.caption('reveal_quatro');
    s.at(500, () => s.reveal());
    s.at(1800, () => s.score(0));
  }],
  ['round2', 11000, (s) => {
    s.state({ deal: 1, scores: [1, 0], focus: 1 });
    s.caption('round2');
    s.at(1500, () => s.swap(1, 'J♣', 0));
    s.at(4200, () => s.swap(1, 'A♦', 2));
    s.at(5000, () => s.carre(1, true));
    s.at(6500, () => { s.lamp(1, true); s.caption('crack'); });
    s.at(7400, () => s.burst(1, '🐙'));
  }],
  ['contre', 11000, (s) => {
    s.state({ deal: 1, swaps: [[1, 'J♣', 0], [1, 'A♦', 2]], scores: [1, 0], carre: [1], lamps: [[1, '🐙']], focus: 0 });
    s.caption('contre');
    s.at(600, () => s.call(0, 'contre', 1));
    s.at(3600, () => { s.reveal(); s.caption('reveal_contre'); });
    s.at(5000, () => s.score(0));
  }],
  ['decoy', 14000, (s) => {
    s.state({ deal: 2, scores: [2, 0], focus: 1 });
    s.caption('round3');
    s.at(1400, () => s.swap(1, 'Q♣', 0));
    s.at(3600, () => s.lamp(1, true));
    s.at(4600, () => s.burst(1, '🎸'));
    s.at(7400, () => { s.caption('bait'); s.call(0, 'contre', 1); });
    s.at(9800, () => { s.reveal(); s.caption('reveal_decoy'); });
    s.at(11200, () => s.score(1));
  }],
  ['outro', 6500, (s) => {
    s.state({ deal: 2, swaps: [[1, 'Q♣', 0]], scores: [2, 1] });
    s.caption('outro');
  }],
];

// Every sentence the band shows: the band is as tall as the tallest needs, so the table never jumps between scenes.
export const CAPTIONS = ['intro', 'swap', 'carre', 'channel', 'everybody', 'quatro', 'reveal_quatro', 'round2', 'crack',
  'contre', 'reveal_contre', 'round3', 'bait', 'reveal_decoy', 'outro'];
