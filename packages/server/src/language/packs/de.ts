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
      "Da bin ich mir nicht sicher – ich habe Seiten gefunden, die damit zu tun haben könnten, aber keine beantwortet es eindeutig. Möchten Sie, dass ich Sie mit einer Person verbinde?",
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
};
