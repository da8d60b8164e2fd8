// The big screen's lookup over the catalogs (common/i18n.js): its words are web/i18n/<lang>.json's "screen" group
// (the attract loop's are "attract", the team names "common").
import { translator } from '../common/i18n.js';

export const t = translator(['screen', 'common']);
