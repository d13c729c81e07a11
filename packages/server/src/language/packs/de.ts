import type { LanguagePack } from "../language-pack.js";

export const de: LanguagePack = {
  code: "de",
  textSearchConfig: "german",
  stopWords: [],
  minContentWordLength: 4,
  smallTalk: {
    phrases: {
      greeting: ["hallo", "guten tag", "guten morgen", "guten abend", "servus", "moin"],
      thanks: ["danke", "danke schön", "dankeschön", "vielen dank", "danke sehr"],
      goodbye: ["tschüss", "tschüs", "auf wiedersehen", "bis bald", "schönen tag noch"],
      acknowledgement: ["okay", "ok", "ja", "nein", "super", "perfekt", "alles klar", "verstanden", "nein danke"],
    },
    replies: {
      greeting: "Hallo! Wie kann ich Ihnen helfen?",
      thanks: "Gern geschehen! Kann ich Ihnen sonst noch helfen?",
      goodbye: "Auf Wiedersehen und danke für Ihren Besuch!",
      acknowledgement: "Kann ich Ihnen sonst noch helfen?",
    },
    addressees: [],
  },
  personRequest: {
    articles: ["einem", "einer", "jemand(?:em)?"],
    adjectives: ["echten?"],
    nouns: ["mensch(?:en)?", "mitarbeiter(?:in)?", "berater(?:in)?"],
    // "mit einem Menschen sprechen", "mit einem Mitarbeiter reden"
    patterns: (person) => [new RegExp(`\\bmit\\s+${person}\\s+(?:sprechen|reden|chatten)\\b`, "iu")],
  },
  yes: ["ja", "ja bitte", "gerne", "ja gerne", "okay bitte"],
  unsureReplies: {
    nothing_found: "Da bin ich mir nicht sicher – ich habe dazu nichts auf dieser Website gefunden. Möchten Sie, dass ich Sie mit einer Person verbinde?",
    doubtful_match:
      "Ich bin nicht sicher, ob das Ihre Frage beantwortet. Möchten Sie, dass ich Sie mit einer Person verbinde?",
  },
  pageReplies: {
    quoting: (page) => `Auf unserer Seite „${page}“ steht:`,
    mayHelp: (pages) => (pages.length === 1 ? `Diese Seite könnte helfen: ${pages.join("")}` : `Diese Seiten könnten helfen: ${pages.join("; ")}`),
  },
  backReference: /^(?:es|dies|diese|dieser|dieses|er|aber|sonst|dann|dafür|deshalb|in diesem fall)\b/iu,
  continuation: /^\s*(?:und|aber)\b/iu,
  pointingBack: null,
  detection: {
    functionWords: ["der", "die", "das", "ist", "sie", "ihr", "ich", "mein", "meine", "wie", "was", "kann", "können", "und", "für", "zu", "von", "mit", "ein", "eine", "nicht", "wann", "wo", "viel", "auf", "den", "dem", "es", "bei"],
    helpDeskWords: ["öffnungszeit", "versand", "liefer", "rückerstatt", "rücksend", "rückgabe", "garantie", "bestell", "preis", "zahlung", "storn", "konto", "passwort", "bitte", "geschäft", "laden", "kostenlos", "danke", "hallo", "sonntag", "gibt", "ihr", "habt", "haben"],
    spelling: /(?:sch|ung$|keit$|heit$|zeit|ä|ö|ü|ß|^ge|tz|ei)/u,
    letters: /[äöüß]/u,
  },
  mail: {
    direction: "ltr",
    personRequestedSubject: (agent) => `Ein Besucher möchte mit einer Person sprechen (${agent})`,
    personRequestedIntro: (agent) => `Ein Besucher im Gespräch mit ${agent} hat nach einer Person gefragt, und kein Mitarbeiter ist online.`,
    unseenVisitorMessageSubject: (agent) => `Ein Besucher wartet auf Ihre Antwort (${agent})`,
    unseenVisitorMessageIntro: (agent) => `Ein Besucher in einem Gespräch, das Sie mit ${agent} betreuen, hat Ihnen geschrieben, und Sie haben es noch nicht gelesen.`,
    digestSubject: (count) => (count === 1 ? "1 Gespräch braucht Sie" : `${count} Gespräche brauchen Sie`),
    digestIntro: "Während Sie weg waren, brauchten diese Gespräche eine Person:",
    reasonLabel: "Grund",
    lastMessageLabel: "Letzte Nachricht",
    pageLabel: "Seite",
    openConversation: "Gespräch öffnen",
    operatorFooter: "Sie erhalten diese E-Mails als Mitarbeiter in Frontdesk. Wählen Sie in Ihrem Profil in der Konsole jede Meldung, eine stündliche Zusammenfassung oder keine.",
    replySubject: (operator, agent) => `${operator} hat Ihnen geantwortet (${agent})`,
    replyIntro: (operator) => `${operator} hat Ihnen geantwortet, während Sie weg waren:`,
    continueConversation: "Gespräch fortsetzen",
    transcriptSubject: (agent) => `Ihr Gespräch mit ${agent}`,
    transcriptIntro: (agent) => `Hier ist der Verlauf Ihres Gesprächs mit ${agent}.`,
    you: "Sie",
    visitorFooter: "Sie erhalten diese E-Mail, weil Sie Ihre Adresse im Chat hinterlassen haben. Falls Sie das nicht waren, ignorieren Sie sie.",
    answerTestsRegressedSubject: (agent, count) => (count === 1 ? `Ein Antworttest von ${agent} schlägt jetzt fehl` : `${count} Antworttests von ${agent} schlagen jetzt fehl`),
    answerTestsRegressedIntro: (agent) => `Diese Fragen an ${agent} wurden im vorigen Lauf der Antworttests richtig beantwortet, jetzt nicht mehr:`,
    openAnswerTests: "Antworttests öffnen",
  },
};
