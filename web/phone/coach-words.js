// The coach's words (phone/coach.js), English and French: each hint's text, HTML of our own (never user text;
// names and emojis arrive escaped). A function takes the hint's numbers and names.
export const COACH_WORDS = {
  en: {
    got_it: 'Got it',
    hint: 'Tip',
    close: 'Close this tip',
    sign: 'Careful: <b>everybody sees your flashes</b>; only your partner knows that this one means '
      + '<i>“I have a carré”</i>. <b>Lock in</b> fixes it for you both; <b>Ready</b> starts the round sooner.',
    hand: 'These are the centre cards; yours are at the bottom. Tap one of yours, then one of these: they swap, '
      + 'everybody at once, no turns. Collect <b>four of a kind</b>, a carré.',
    cooldown: ({ n }) => `After a swap you wait ${n} s: the ring around your hand shows it. Then swap again.`,
    channel: ({ n }) => '<b>Take the channel</b> and pick an emoji: it flashes on the TV at your seat every '
      + `${n} s while you hold it. Got a carré? Flash your sign, and never call Quatro yourself. Flash other emojis `
      + 'as decoys.',
    partner_sign: ({ name, sign }) => `${name} just flashed ${sign}, your sign: they may hold a carré. `
      + '<b>Hold Quatro!</b> to score.',
    contre: ({ name, emoji }) => `${name} keeps flashing ${emoji}. If you think it is their sign, hold `
      + '<b>Contre!</b> and name their team. It may be a decoy!',
    // four seats: one team to accuse, Contre! names it by itself
    contre_one: ({ name, emoji }) => `${name} keeps flashing ${emoji}. If you think it is their sign, hold `
      + '<b>Contre!</b>: it accuses their team. It may be a decoy!',
    vote: ({ n }) => `A reshuffle gives everybody new cards. Accept or refuse within ${n} s: `
      + '<b>silence means no</b>.',
    reshuffle: 'Nobody wants the centre cards? <b>Reshuffle</b> asks the others for new cards for everybody, once per '
      + 'round.',
    one_call: 'One call ends the round, right or wrong. A wrong Quatro gives a point to <b>every other team</b>; '
      + 'a wrong Contre gives it to the team you accused.',
  },
  fr: {
    got_it: 'Compris',
    hint: 'Astuce',
    close: 'Fermer cette astuce',
    sign: 'Attention&nbsp;: <b>tout le monde voit ce que tu émets</b>&nbsp;; seul ton partenaire sait que celui-ci veut '
      + 'dire <i>«&nbsp;j’ai un carré&nbsp;»</i>. <b>Valider</b> le fixe pour vous deux&nbsp;; <b>Prêt</b> lance la '
      + 'manche plus tôt.',
    hand: 'Voici les cartes du centre&nbsp;; les tiennes sont en bas. Touche une des tiennes, puis une de celles-ci&nbsp;: '
      + 'elles s’échangent, tous en même temps, sans tour. Réunis <b>quatre cartes du même rang</b>, un carré.',
    cooldown: ({ n }) => `Après un échange, tu attends ${n}&nbsp;s&nbsp;: l’anneau autour de ta main le montre. `
      + 'Puis échange à nouveau.',
    channel: ({ n }) => '<b>Prends la main</b> et choisis un émoji&nbsp;: il clignote sur la télé à ta place toutes '
      + `les ${n}&nbsp;s tant que tu gardes la main. Un carré&nbsp;? Fais ton signe, et n’annonce jamais Quatro `
      + 'toi-même. D’autres émojis servent de leurres.',
    partner_sign: ({ name, sign }) => `${name} vient de faire ${sign}, votre signe&nbsp;: il a peut-être un carré. `
      + '<b>Maintiens Quatro&nbsp;!</b> pour marquer.',
    contre: ({ name, emoji }) => `${name} fait sans cesse ${emoji}. Si tu penses que c’est son signe, maintiens `
      + '<b>Contre&nbsp;!</b> et désigne son équipe. C’est peut-être un leurre&nbsp;!',
    contre_one: ({ name, emoji }) => `${name} fait sans cesse ${emoji}. Si tu penses que c’est son signe, maintiens `
      + '<b>Contre&nbsp;!</b>&nbsp;: il accuse son équipe. C’est peut-être un leurre&nbsp;!',
    vote: ({ n }) => `Rebattre donne de nouvelles cartes à tout le monde. Accepte ou refuse dans les ${n}&nbsp;s&nbsp;: `
      + '<b>sans réponse, c’est non</b>.',
    reshuffle: 'Plus personne ne veut des cartes du centre&nbsp;? <b>Rebattre</b> demande aux autres de nouvelles cartes '
      + 'pour tout le monde, une fois par manche.',
    one_call: 'La première annonce termine la manche, juste ou fausse. Un Quatro faux donne un point à <b>chacune des '
      + 'autres équipes</b>&nbsp;; un Contre faux le donne à l’équipe accusée.',
  },
};
