// The words of phone/announce.js, what a screen reader hears of the game's moments: one object per language,
// {placeholders} filled in, a count's sentence as {one, other} (the language's plural categories).
export default {
  en: {
    log_label: 'What happens at the table',
    call_alt: 'Or tap it twice: you are asked to confirm first.',
    partner_sign: '{name}, your partner, flashes your sign {emoji}.',
    partner_flash: '{name}, your partner, flashes {emoji}.',
    repeated: {
      one: '{name} has flashed {emoji} once this round.',
      other: '{name} has flashed {emoji} {n} times this round.',
    },
  },
  fr: {
    log_label: 'Ce qui se passe à la table',
    call_alt: 'Ou touche-le deux fois : on te demande de confirmer d’abord.',
    partner_sign: '{name}, ton partenaire, montre votre signe {emoji}.',
    partner_flash: '{name}, ton partenaire, montre {emoji}.',
    repeated: {
      one: '{name} a montré {emoji} une fois dans cette manche.',
      other: '{name} a montré {emoji} {n} fois dans cette manche.',
    },
  },
};
