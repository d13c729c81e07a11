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

/**
 * Words of short help-desk questions ("Opening hours?", "Livrez-vous le dimanche ?"), matched as
 * word beginnings: a question of one or two words often has no function word at all.
 */
const HELP_DESK_WORDS: Record<string, string[]> = {
  en: ["opening", "hours", "shipping", "delivery", "deliver", "refund", "return", "warranty", "order", "price", "payment", "cancel", "account", "password", "please", "there", "any", "store", "shop", "open", "cost", "free", "help", "thanks"],
  fr: ["livr", "horaire", "ouverture", "rembours", "retour", "retourn", "garantie", "commande", "prix", "paiement", "annul", "compte", "mot de passe", "svp", "boutique", "magasin", "gratuit", "merci", "bonjour", "dimanche", "envoy", "expédi", "puis", "pouvez", "avez", "êtes", "y"],
  de: ["öffnungszeit", "versand", "liefer", "rückerstatt", "rücksend", "rückgabe", "garantie", "bestell", "preis", "zahlung", "storn", "konto", "passwort", "bitte", "geschäft", "laden", "kostenlos", "danke", "hallo", "sonntag", "gibt", "ihr", "habt", "haben"],
  es: ["horario", "apertura", "envío", "envi", "entreg", "reembolso", "devol", "garantía", "pedido", "precio", "pago", "cancel", "cuenta", "contraseña", "favor", "tienda", "gratis", "gracias", "hola", "domingo", "hay", "puedo", "tienen"],
  nl: ["openingstijd", "verzend", "verzen", "bezorg", "lever", "terugbetal", "retour", "garantie", "bestelling", "prijs", "betal", "annuler", "account", "wachtwoord", "alstublieft", "graag", "winkel", "gratis", "bedankt", "dank", "hallo", "zondag", "jullie", "hoeveel", "kunnen"],
  pt: ["horário", "funcionamento", "envio", "envia", "entreg", "reembolso", "devol", "garantia", "pedido", "preço", "pagamento", "cancel", "conta", "senha", "favor", "loja", "grátis", "obrigad", "olá", "domingo", "vocês", "há", "barraca"],
  it: ["orari", "apertura", "spedi", "consegn", "rimbors", "restitu", "reso", "garanzia", "ordine", "prezzo", "pagamento", "annull", "account", "password", "favore", "negozio", "gratis", "grazie", "ciao", "domenica", "c'è", "dov'è", "avete", "potete"],
};

/** Spellings typical of one language's words. */
const SPELLINGS: Record<string, RegExp> = {
  en: /(?:^th|ing$|ight|ould$|^wh|w)/u,
  fr: /(?:eau|aux$|ez$|^qu'|^d'|^l'|^j'|^c'|^s'|^n'|^t'|-vous$|-il$|-elle$|-je$|oi|ou)/u,
  de: /(?:sch|ung$|keit$|heit$|zeit|ä|ö|ü|ß|^ge|tz|ei)/u,
  es: /(?:ción$|ñ|^¿|dad$|mos$|ll)/u,
  nl: /(?:ij|oe|aa|uu|ee|^ge|sch|tje$|lijk$)/u,
  pt: /(?:ção$|ções$|ão$|õe|lh|nh|ç)/u,
  it: /(?:zione$|zz|cc|gli|^c'|^dov'|ità$|ete$|ono$)/u,
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

/**
 * Scores each language by its function words (1 each), the help-desk words a message starts with
 * (1 each), spellings typical of it (¼ per word) and letters only it uses (½), and answers the
 * best when it is ahead by ½ or more; otherwise `fallback`.
 */
export function detectLanguage(text: string, fallback: string): string {
  const lower = text.toLowerCase().replaceAll("’", "'");
  const tokens: string[] = lower.match(/[\p{L}'-]+/gu) ?? [];
  // "livrez-vous" and "l'adresse" are also read as their parts.
  const words = [...new Set([...tokens, ...tokens.flatMap((token) => token.split(/-|(?<=')/u))])].filter((word) => word !== "");
  if (words.length === 0) return fallback;
  const scores = new Map<string, number>();
  for (const [language, list] of Object.entries(FUNCTION_WORDS)) {
    const set = new Set(list);
    let score = tokens.filter((word) => set.has(word)).length + words.filter((word) => !tokens.includes(word) && set.has(word)).length * 0.5;
    score += words.filter((word) => HELP_DESK_WORDS[language]?.some((stem) => word.startsWith(stem) && (stem.length >= 4 || word === stem))).length;
    score += tokens.filter((word) => SPELLINGS[language]?.test(word)).length * 0.25;
    if (LETTERS[language]?.test(lower)) score += 0.5;
    scores.set(language, score);
  }
  if (/[¿¡]/u.test(text)) scores.set("es", (scores.get("es") ?? 0) + 1);
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || best[1] < 1 || (second && best[1] - second[1] < 0.5)) return fallback;
  return best[0];
}
