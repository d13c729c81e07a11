/**
 * Messages that are only a greeting, a thank-you, a goodbye or an acknowledgement ("hi", "Hello
 * there!", "thanks a lot", "merci", "tschüss", "ok", "got it") get a short reply of their own in
 * the language they were written in, instead of "I couldn't find that on this site" or the
 * previous answer again. Anything more than that ("hi, is delivery free?") is a question and goes
 * the usual way.
 */
type Kind = "greeting" | "thanks" | "goodbye" | "acknowledgement";

const PHRASES: Record<string, Record<Kind, string[]>> = {
  en: {
    greeting: ["hi", "hello", "hey", "hiya", "howdy", "good morning", "good afternoon", "good evening", "hi there", "hello there", "hey there", "greetings"],
    thanks: ["thanks", "thank you", "thx", "ty", "cheers", "thanks a lot", "thank you so much", "thanks so much", "many thanks", "great thanks", "ok thanks", "okay thanks", "perfect thanks", "thanks for your help", "thank you for your help"],
    goodbye: ["bye", "goodbye", "bye bye", "see you", "see you later", "see ya", "have a nice day", "good night"],
    acknowledgement: ["ok", "okay", "ok cool", "okay cool", "great", "cool", "got it", "perfect", "alright", "all right", "yes", "yeah", "yep", "no", "nope", "no thanks", "no thank you", "i see", "understood", "fine", "sounds good", "awesome", "nice"],
  },
  fr: {
    greeting: ["bonjour", "salut", "bonsoir", "coucou"],
    thanks: ["merci", "merci beaucoup", "merci bien", "super merci"],
    goodbye: ["au revoir", "bonne journée", "bonne soirée", "à bientôt"],
    acknowledgement: ["d'accord", "ok", "oui", "non", "parfait", "super", "très bien", "compris", "non merci"],
  },
  de: {
    greeting: ["hallo", "guten tag", "guten morgen", "guten abend", "servus", "moin"],
    thanks: ["danke", "danke schön", "dankeschön", "vielen dank", "danke sehr"],
    goodbye: ["tschüss", "tschüs", "auf wiedersehen", "bis bald", "schönen tag noch"],
    acknowledgement: ["okay", "ok", "ja", "nein", "super", "perfekt", "alles klar", "verstanden", "nein danke"],
  },
  es: {
    greeting: ["hola", "buenos días", "buenas tardes", "buenas noches", "buenas"],
    thanks: ["gracias", "muchas gracias", "mil gracias"],
    goodbye: ["adiós", "adios", "hasta luego", "hasta pronto", "chao"],
    acknowledgement: ["vale", "ok", "sí", "si", "no", "perfecto", "genial", "entendido", "no gracias"],
  },
  pt: {
    greeting: ["olá", "ola", "oi", "bom dia", "boa tarde", "boa noite"],
    thanks: ["obrigado", "obrigada", "muito obrigado", "muito obrigada", "valeu"],
    goodbye: ["tchau", "até logo", "até mais"],
    acknowledgement: ["ok", "sim", "não", "perfeito", "ótimo", "entendi", "não obrigado", "não obrigada"],
  },
  it: {
    greeting: ["ciao", "buongiorno", "buonasera", "salve"],
    thanks: ["grazie", "grazie mille", "molte grazie"],
    goodbye: ["arrivederci", "a presto", "buona giornata"],
    acknowledgement: ["ok", "sì", "no", "perfetto", "ottimo", "capito", "va bene", "no grazie"],
  },
  nl: {
    greeting: ["hallo", "hoi", "goedemorgen", "goedemiddag", "goedenavond", "hey"],
    thanks: ["dank je", "dank u", "bedankt", "dank je wel", "dank u wel", "hartelijk dank"],
    goodbye: ["doei", "tot ziens", "fijne dag"],
    acknowledgement: ["oké", "ok", "ja", "nee", "prima", "top", "begrepen", "nee dank je", "nee bedankt"],
  },
};

const REPLIES: Record<string, Record<Kind, string>> = {
  en: { greeting: "Hello! How can I help you today?", thanks: "You're welcome! Is there anything else I can help you with?", goodbye: "Goodbye, and thanks for stopping by!", acknowledgement: "Is there anything else I can help you with?" },
  fr: { greeting: "Bonjour ! Comment puis-je vous aider ?", thanks: "Avec plaisir ! Puis-je vous aider pour autre chose ?", goodbye: "Au revoir, et merci de votre visite !", acknowledgement: "Puis-je vous aider pour autre chose ?" },
  de: { greeting: "Hallo! Wie kann ich Ihnen helfen?", thanks: "Gern geschehen! Kann ich Ihnen sonst noch helfen?", goodbye: "Auf Wiedersehen und danke für Ihren Besuch!", acknowledgement: "Kann ich Ihnen sonst noch helfen?" },
  es: { greeting: "¡Hola! ¿En qué puedo ayudarle?", thanks: "¡De nada! ¿Puedo ayudarle en algo más?", goodbye: "¡Adiós, y gracias por su visita!", acknowledgement: "¿Puedo ayudarle en algo más?" },
  pt: { greeting: "Olá! Como posso ajudar?", thanks: "De nada! Posso ajudar em mais alguma coisa?", goodbye: "Tchau, e obrigado pela visita!", acknowledgement: "Posso ajudar em mais alguma coisa?" },
  it: { greeting: "Ciao! Come posso aiutarti?", thanks: "Prego! Posso aiutarti in qualcos'altro?", goodbye: "Arrivederci, e grazie della visita!", acknowledgement: "Posso aiutarti in qualcos'altro?" },
  nl: { greeting: "Hallo! Waarmee kan ik u helpen?", thanks: "Graag gedaan! Kan ik u nog ergens anders mee helpen?", goodbye: "Tot ziens, en bedankt voor uw bezoek!", acknowledgement: "Kan ik u nog ergens anders mee helpen?" },
};

/** Lower-cased, accents kept, punctuation and emoji turned into spaces, spaces collapsed. */
function normalise(message: string): string {
  return message
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'’ ]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Longest phrases first, so "thank you so much" is not read as "thank you" plus extra words. */
const ENTRIES = Object.entries(PHRASES)
  .flatMap(([language, kinds]) => (Object.entries(kinds) as [Kind, string[]][]).flatMap(([kind, phrases]) => phrases.map((phrase) => ({ language, kind, phrase }))))
  .sort((a, b) => b.phrase.length - a.phrase.length);

/** Words that may follow a greeting or a thank-you without making it a question. */
const ADDRESSEES = new Set(["again", "all", "everyone", "team", "guys", "folks", "friend", "bot"]);

/** A message of several kinds ("thanks, bye") is answered for the one that comes first here. */
const KIND_ORDER: readonly Kind[] = ["goodbye", "thanks", "greeting", "acknowledgement"];

/**
 * The reply to a message that is nothing but small talk, in its language (the agent's language
 * first when the phrase is shared, like "hallo"), or null for anything else. The message is one
 * phrase or several ("ok thanks, bye"), each of which may be followed by the bot's name or a word
 * like "again" ("hi Ada", "thanks again"), nothing else.
 */
export function smallTalkReply(message: string, agent: { language: string; name: string }): string | null {
  const text = normalise(message);
  if (text === "" || text.length > 60) return null;
  const preferred = agent.language.toLowerCase().split(/[-_]/)[0] ?? "";
  const names = new Set(normalise(agent.name).split(" "));
  const words = text.split(" ");
  const found: typeof ENTRIES = [];
  for (let at = 0; at < words.length; ) {
    const rest = words.slice(at).join(" ");
    const phrase = ENTRIES.find((entry) => rest === entry.phrase || rest.startsWith(`${entry.phrase} `))?.phrase;
    if (phrase !== undefined) {
      found.push(...ENTRIES.filter((entry) => entry.phrase === phrase));
      at += phrase.split(" ").length;
    } else if (found.length > 0 && (ADDRESSEES.has(words[at]!) || names.has(words[at]!))) at += 1;
    else return null;
  }
  const kind = KIND_ORDER.find((candidate) => found.some((entry) => entry.kind === candidate));
  if (kind === undefined) return null;
  const ofKind = found.filter((entry) => entry.kind === kind);
  const best = ofKind.find((entry) => entry.language === preferred) ?? ofKind[0]!;
  return REPLIES[best.language]![kind];
}

/** Whether a message is nothing but small talk ("thanks!", "hi there"), in any language known here. */
export function isSmallTalk(message: string): boolean {
  return smallTalkReply(message, { language: "", name: "" }) !== null;
}
