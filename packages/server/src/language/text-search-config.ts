import { findLanguagePack, primaryLanguage } from "./language-packs.js";

/**
 * Postgres's configurations for languages Frontdesk has no pack for: an agent may still be set to
 * one of them, and its chunks are stemmed with it (see `language-packs.ts` for those it speaks).
 */
const WITHOUT_PACK: Readonly<Record<string, string>> = {
  da: "danish",
  el: "greek",
  fi: "finnish",
  hu: "hungarian",
  id: "indonesian",
  lt: "lithuanian",
  no: "norwegian",
  nb: "norwegian",
  ro: "romanian",
  ru: "russian",
  sv: "swedish",
  tr: "turkish",
};

/** The Postgres text-search configuration for an agent's default language ('simple' when Postgres has none). */
export function textSearchConfigFor(language: string): string {
  return findLanguagePack(language)?.textSearchConfig ?? WITHOUT_PACK[primaryLanguage(language)] ?? "simple";
}
