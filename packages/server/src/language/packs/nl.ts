import type { LanguagePack } from "../language-pack.js";

export const nl: LanguagePack = {
  code: "nl",
  textSearchConfig: "dutch",
  stopWords: [],
  minContentWordLength: 4,
  smallTalk: {
    phrases: {
      greeting: ["hallo", "hoi", "goedemorgen", "goedemiddag", "goedenavond", "hey"],
      thanks: ["dank je", "dank u", "bedankt", "dank je wel", "dank u wel", "hartelijk dank"],
      goodbye: ["doei", "tot ziens", "fijne dag"],
      acknowledgement: ["oké", "ok", "ja", "nee", "prima", "top", "begrepen", "nee dank je", "nee bedankt"],
    },
    replies: {
      greeting: "Hallo! Waarmee kan ik u helpen?",
      thanks: "Graag gedaan! Kan ik u nog ergens anders mee helpen?",
      goodbye: "Tot ziens, en bedankt voor uw bezoek!",
      acknowledgement: "Kan ik u nog ergens anders mee helpen?",
    },
    addressees: [],
  },
  personRequest: {
    articles: ["een", "iemand"],
    adjectives: [],
    nouns: ["mens", "medewerker"],
    // "spreken met een medewerker", "praten met een mens"
    patterns: (person) => [new RegExp(`\\b(?:spreken|praten|chatten)\\s+met\\s+${person}\\b`, "iu")],
  },
  yes: ["ja", "ja graag", "graag", "ja alstublieft", "prima"],
  unsureReplies: {
    nothing_found: "Daar ben ik niet zeker van — ik kon het niet vinden op deze website. Wilt u dat ik u in contact breng met een medewerker?",
    doubtful_match:
      "Daar ben ik niet zeker van — ik vond pagina's die ermee te maken kunnen hebben, maar geen enkele geeft een duidelijk antwoord. Wilt u dat ik u in contact breng met een medewerker?",
  },
  backReference: /^(?:dit|dat|deze|zij|hij|maar|anders|dan|daarom|in dat geval)\b/iu,
  continuation: /^\s*(?:en|maar)\b/iu,
  pointingBack: null,
  detection: {
    functionWords: ["de", "het", "een", "is", "u", "uw", "jullie", "ik", "mijn", "wat", "hoe", "kan", "kun", "voor", "van", "en", "met", "niet", "wanneer", "waar", "veel", "op", "te", "zijn", "ook", "er", "naar", "bij", "dat"],
    helpDeskWords: ["openingstijd", "verzend", "verzen", "bezorg", "lever", "terugbetal", "retour", "garantie", "bestelling", "prijs", "betal", "annuler", "account", "wachtwoord", "alstublieft", "graag", "winkel", "gratis", "bedankt", "dank", "hallo", "zondag", "jullie", "hoeveel", "kunnen"],
    spelling: /(?:ij|oe|aa|uu|ee|^ge|sch|tje$|lijk$)/u,
    letters: null,
  },
};
