import { LANGUAGE_PACKS } from "./language-packs.js";

/** Each pack's detection words, read once. */
const DETECTION = LANGUAGE_PACKS.map((pack) => ({
  code: pack.code,
  ...pack.detection,
  script: pack.detection.script === undefined ? undefined : new RegExp(pack.detection.script.source, "gu"),
  functionWords: new Set(pack.detection.functionWords),
}));

/** A message mostly in a script only one language writes in (Arabic, Hebrew) is in that language. */
function languageOfScript(text: string): string | undefined {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return undefined;
  return DETECTION.find((language) => language.script !== undefined && (text.match(language.script)?.length ?? 0) * 2 > letters)?.code;
}

/**
 * The language of a visitor's message among the server's (see `language-packs.ts`): by its script
 * where only one language writes in it, else by its function words and letters: enough for "which
 * language do I answer in", not a general identifier. A message too short or too mixed to tell
 * gives `fallback` (the agent's language).
 *
 * Scores each language by its function words (1 each), the help-desk words a message starts with
 * (1 each), spellings typical of it (¼ per word) and letters only it uses (½), and answers the
 * best when it is ahead by ½ or more; otherwise `fallback`.
 */
export function detectLanguage(text: string, fallback: string): string {
  const byScript = languageOfScript(text);
  if (byScript !== undefined) return byScript;
  const lower = text.toLowerCase().replaceAll("’", "'");
  const tokens: string[] = lower.match(/[\p{L}'-]+/gu) ?? [];
  // "livrez-vous" and "l'adresse" are also read as their parts.
  const words = [...new Set([...tokens, ...tokens.flatMap((token) => token.split(/-|(?<=')/u))])].filter((word) => word !== "");
  if (words.length === 0) return fallback;
  const scores = new Map<string, number>();
  for (const language of DETECTION) {
    if (language.functionWords.size === 0) continue;
    let score = tokens.filter((word) => language.functionWords.has(word)).length + words.filter((word) => !tokens.includes(word) && language.functionWords.has(word)).length * 0.5;
    score += words.filter((word) => language.helpDeskWords.some((stem) => word.startsWith(stem) && (stem.length >= 4 || word === stem))).length;
    score += tokens.filter((word) => language.spelling?.test(word)).length * 0.25;
    if (language.letters?.test(lower)) score += 0.5;
    scores.set(language.code, score);
  }
  if (/[¿¡]/u.test(text)) scores.set("es", (scores.get("es") ?? 0) + 1);
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || best[1] < 1 || (second && best[1] - second[1] < 0.5)) return fallback;
  return best[0];
}
