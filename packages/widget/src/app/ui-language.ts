import { pickLanguage, textDirection } from "../shared/pick-language.js";
import { engagementEn, type EngagementStrings } from "./engagement/engagement-strings.js";
import { ar } from "./languages/ar.js";
import { de } from "./languages/de.js";
import { ENGAGEMENT_TRANSLATIONS } from "./languages/engagement.js";
import { es } from "./languages/es.js";
import { fr } from "./languages/fr.js";
import { he } from "./languages/he.js";
import { it } from "./languages/it.js";
import { nl } from "./languages/nl.js";
import { pt } from "./languages/pt.js";
import { en, type Translation, type UiStrings } from "./ui-strings.js";

export const TRANSLATIONS: Readonly<Record<string, Translation>> = { en, fr, de, es, nl, pt, it, ar, he };
export const SPOKEN_LANGUAGES = Object.keys(TRANSLATIONS);

export interface UiLanguage {
  language: string;
  dir: "ltr" | "rtl";
  strings: UiStrings;
  /** The rule bubbles', coupons' and satisfaction prompt's words. */
  engagement: EngagementStrings;
}

/**
 * The widget's language: data-language, else the agent's language_default (known once init has
 * answered), else the browser's languages, else English; the first of them the widget speaks.
 */
export function resolveUiLanguage(dataLanguage: string | null, agentDefault: string | undefined, browser: readonly string[]): UiLanguage {
  const language = pickLanguage([dataLanguage, agentDefault, ...browser], SPOKEN_LANGUAGES);
  return {
    language,
    dir: textDirection(language),
    strings: { ...en, ...TRANSLATIONS[language] },
    engagement: { ...engagementEn, ...ENGAGEMENT_TRANSLATIONS[language] },
  };
}
