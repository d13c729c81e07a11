import type { DomDocument } from "./html-dom.js";

/**
 * The language the page declares: `<html lang>`, then `Content-Language` in a meta tag, then
 * `og:locale`. Returned in canonical BCP 47 form (`en_us` → `en-US`); undefined when absent or invalid.
 */
export function findPageLanguage(document: DomDocument): string | undefined {
  const root = document.documentElement;
  const candidates = [
    root?.getAttribute("lang"),
    root?.getAttribute("xml:lang"),
    document.querySelector('meta[http-equiv="content-language" i]')?.getAttribute("content")?.split(",")[0],
    document.querySelector('meta[property="og:locale"]')?.getAttribute("content"),
  ];
  for (const candidate of candidates) {
    const language = canonicalLanguage(candidate ?? "");
    if (language !== undefined) return language;
  }
  return undefined;
}

function canonicalLanguage(text: string): string | undefined {
  const tag = text.trim().replaceAll("_", "-");
  if (tag === "" || tag.toLowerCase() === "und") return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}
