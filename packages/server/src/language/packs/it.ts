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
    doubtful_match: "Non sono sicuro che risponda alla tua domanda. Vuoi che ti metta in contatto con una persona?",
  },
  pageReplies: {
    quoting: (page) => `Dalla nostra pagina «${page}»:`,
    mayHelp: (pages) => (pages.length === 1 ? `Questa pagina può esserti utile: ${pages.join("")}` : `Queste pagine possono esserti utili: ${pages.join("; ")}`),
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
  mail: {
    direction: "ltr",
    personRequestedSubject: (agent) => `Un visitatore chiede di parlare con una persona (${agent})`,
    personRequestedIntro: (agent) => `Un visitatore che parla con ${agent} ha chiesto una persona e nessun operatore è online.`,
    unseenVisitorMessageSubject: (agent) => `Un visitatore aspetta la sua risposta (${agent})`,
    unseenVisitorMessageIntro: (agent) => `Un visitatore di una conversazione che segue con ${agent} le ha scritto e non l’ha ancora letto.`,
    digestSubject: (count) => (count === 1 ? "1 conversazione ha bisogno di lei" : `${count} conversazioni hanno bisogno di lei`),
    digestIntro: "Mentre era assente, queste conversazioni avevano bisogno di una persona:",
    reasonLabel: "Motivo",
    lastMessageLabel: "Ultimo messaggio",
    pageLabel: "Pagina",
    openConversation: "Apri la conversazione",
    operatorFooter: "Riceve queste e-mail come operatore di Frontdesk. Scelga ogni avviso, un riepilogo orario o nessuno nel suo profilo nella console.",
    replySubject: (operator, agent) => `${operator} le ha risposto (${agent})`,
    replyIntro: (operator) => `${operator} le ha risposto mentre era via:`,
    continueConversation: "Continua la conversazione",
    transcriptSubject: (agent) => `La sua conversazione con ${agent}`,
    transcriptIntro: (agent) => `Ecco la trascrizione della sua conversazione con ${agent}.`,
    you: "Lei",
    visitorFooter: "Riceve questa e-mail perché ha lasciato il suo indirizzo nella chat. Se non è stato lei, la ignori.",
  },
};
