/** Languages written right to left: the widget's layout is mirrored (dir="rtl") in them. */
const RIGHT_TO_LEFT = ["ar", "he", "fa", "ur"];

/** "pt-BR" → "pt", "HE" → "he". */
export const primarySubtag = (tag: string): string => tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";

/**
 * The first of the candidates (data-language, the agent's language_default, the browser's languages,
 * in that order) that the widget speaks, by primary subtag; English when none is.
 */
export function pickLanguage(candidates: readonly (string | null | undefined)[], spoken: readonly string[]): string {
  for (const candidate of candidates) {
    const language = candidate ? primarySubtag(candidate) : "";
    if (spoken.includes(language)) return language;
  }
  return "en";
}

export const textDirection = (language: string): "rtl" | "ltr" => (RIGHT_TO_LEFT.includes(primarySubtag(language)) ? "rtl" : "ltr");
