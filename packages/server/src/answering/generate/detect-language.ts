/**
 * The language of a visitor's message among the widget's seven (en, fr, de, es, nl, pt, it), by
 * its function words and letters: enough for "which language do I answer in", not a general
 * identifier. A message too short or too mixed to tell gives `fallback` (the agent's language).
 */
const FUNCTION_WORDS: Record<string, string[]> = {
  en: ["the", "is", "are", "do", "does", "you", "your", "i", "my", "what", "how", "can", "to", "of", "and", "for", "it", "in", "have", "when", "where", "much", "with", "this", "be"],
  fr: ["le", "la", "les", "est", "vous", "votre", "vos", "je", "mon", "ma", "mes", "quel", "quelle", "comment", "pour", "de", "des", "du", "et", "un", "une", "est-ce", "que", "qui", "avec", "pas", "ne", "puis", "combien", "où", "sur", "il", "au", "aux"],
  de: ["der", "die", "das", "ist", "sie", "ihr", "ich", "mein", "meine", "wie", "was", "kann", "können", "und", "für", "zu", "von", "mit", "ein", "eine", "nicht", "wann", "wo", "viel", "auf", "den", "dem", "es", "bei", "ich"],
  es: ["el", "la", "los", "las", "es", "usted", "su", "yo", "mi", "qué", "que", "cómo", "como", "puedo", "para", "de", "del", "y", "un", "una", "con", "no", "cuánto", "cuando", "dónde", "por", "se", "hay", "en", "lo"],
  nl: ["de", "het", "een", "is", "u", "uw", "jullie", "ik", "mijn", "wat", "hoe", "kan", "kun", "voor", "van", "en", "met", "niet", "wanneer", "waar", "veel", "op", "te", "zijn", "ook", "er", "naar", "bij", "dat"],
  pt: ["o", "a", "os", "as", "é", "você", "seu", "sua", "eu", "meu", "minha", "que", "como", "posso", "para", "de", "do", "da", "e", "um", "uma", "com", "não", "quanto", "quando", "onde", "em", "no", "na", "tem"],
  it: ["il", "lo", "la", "gli", "le", "è", "voi", "lei", "suo", "io", "mio", "mia", "che", "come", "posso", "per", "di", "del", "della", "e", "un", "una", "con", "non", "quanto", "quando", "dove", "sono", "ho", "si"],
};

/** Letters that only some of the languages use. */
const LETTERS: Record<string, RegExp> = {
  fr: /[àâçèêëîïôœùûÿ]/u,
  de: /[äöüß]/u,
  es: /[ñ¿¡]/u,
  pt: /[ãõç]/u,
  it: /[àèéìòù]/u,
};

export const SUPPORTED_LANGUAGES = Object.keys(FUNCTION_WORDS);

export function detectLanguage(text: string, fallback: string): string {
  const words = text.toLowerCase().match(/[\p{L}'-]+/gu) ?? [];
  if (words.length === 0) return fallback;
  const scores = new Map<string, number>();
  for (const [language, list] of Object.entries(FUNCTION_WORDS)) {
    const set = new Set(list);
    let score = words.filter((word) => set.has(word)).length;
    const letters = LETTERS[language];
    if (letters?.test(text.toLowerCase())) score += 0.5;
    scores.set(language, score);
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || best[1] < 1 || (second && best[1] - second[1] < 1)) return fallback;
  return best[0];
}
