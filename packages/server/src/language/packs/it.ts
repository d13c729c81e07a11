import type { LanguagePack } from "../language-pack.js";

export const it: LanguagePack = {
  code: "it",
  textSearchConfig: "italian",
  stopWords: [],
  minContentWordLength: 4,
  smallTalk: {
    phrases: {
      greeting: ["ciao", "buongiorno", "buonasera", "salve"],
      thanks: ["grazie", "grazie mille", "molte grazie"],
      goodbye: ["arrivederci", "a presto", "buona giornata"],
      acknowledgement: ["ok", "sì", "no", "perfetto", "ottimo", "capito", "va bene", "no grazie"],
    },
    replies: {
      greeting: "Ciao! Come posso aiutarti?",
      thanks: "Prego! Posso aiutarti in qualcos'altro?",
      goodbye: "Arrivederci, e grazie della visita!",
      acknowledgement: "Posso aiutarti in qualcos'altro?",
    },
    addressees: [],
  },
  personRequest: {
    articles: ["un", "uno", "una", "qualcuno"],
    adjectives: ["vero", "vera"],
    nouns: ["umano", "persona", "operat(?:ore|rice)"],
    // "parlare con un operatore"
    patterns: (person) => [new RegExp(`\\bparlare\\s+con\\s+${person}\\b`, "iu")],
  },
  yes: ["sì", "sì grazie", "sì per favore", "certo", "va bene"],
  unsureReplies: {
    nothing_found: "Non ne sono sicuro: non l'ho trovato su questo sito. Vuoi che ti metta in contatto con una persona?",
    doubtful_match: "Non ne sono sicuro: ho trovato pagine forse collegate, ma nessuna risponde chiaramente. Vuoi che ti metta in contatto con una persona?",
  },
  backReference: /^(?:questo|questa|questi|queste|ciò|esso|essa|ma|però|quindi|inoltre|in questo caso)\b/iu,
  continuation: /^\s*(?:e|ma)\b/iu,
  pointingBack: null,
  detection: {
    functionWords: ["il", "lo", "la", "gli", "le", "è", "voi", "lei", "suo", "io", "mio", "mia", "che", "come", "posso", "per", "di", "del", "della", "e", "un", "una", "con", "non", "quanto", "quando", "dove", "sono", "ho", "si"],
    helpDeskWords: ["orari", "apertura", "spedi", "consegn", "rimbors", "restitu", "reso", "garanzia", "ordine", "prezzo", "pagamento", "annull", "account", "password", "favore", "negozio", "gratis", "grazie", "ciao", "domenica", "c'è", "dov'è", "avete", "potete"],
    spelling: /(?:zione$|zz|cc|gli|^c'|^dov'|ità$|ete$|ono$)/u,
    letters: /[àèéìòù]/u,
  },
};
