import type { LanguagePack } from "./language-pack.js";
import { ar } from "./packs/ar.js";
import { de } from "./packs/de.js";
import { en } from "./packs/en.js";
import { es } from "./packs/es.js";
import { fr } from "./packs/fr.js";
import { he } from "./packs/he.js";
import { it } from "./packs/it.js";
import { nl } from "./packs/nl.js";
import { pt } from "./packs/pt.js";

/**
 * The languages the server speaks, English first (it answers when a language has no pack): the
 * widget's languages, no more and no fewer (a test compares both lists). A phrase several
 * languages share ("ok", "hallo") is read in the first of them here unless the agent speaks another.
 */
export const LANGUAGE_PACKS: readonly LanguagePack[] = [en, fr, de, es, nl, pt, it, ar, he];

export const SERVER_LANGUAGES: readonly string[] = LANGUAGE_PACKS.map((pack) => pack.code);

const byCode = new Map(LANGUAGE_PACKS.map((pack) => [pack.code, pack]));

/** The primary language subtag of a BCP 47 tag: `fr-CA` → `fr`, `pt_BR` → `pt`. */
export function primaryLanguage(language: string): string {
  return language.trim().toLowerCase().split(/[-_]/)[0] ?? "";
}

/** The pack of a language tag's primary language, if the server speaks it. */
export function findLanguagePack(language: string): LanguagePack | undefined {
  return byCode.get(primaryLanguage(language));
}

/** The pack of a language tag's primary language, English when the server does not speak it. */
export function languagePackFor(language: string): LanguagePack {
  return findLanguagePack(language) ?? en;
}
