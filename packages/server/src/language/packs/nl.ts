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
      "Ik weet niet zeker of dat uw vraag beantwoordt. Wilt u dat ik u in contact breng met een medewerker?",
  },
  pageReplies: {
    quoting: (page) => `Volgens onze pagina ‘${page}’:`,
    mayHelp: (pages) => (pages.length === 1 ? `Deze pagina kan helpen: ${pages.join("")}` : `Deze pagina's kunnen helpen: ${pages.join("; ")}`),
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
  mail: {
    direction: "ltr",
    personRequestedSubject: (agent) => `Een bezoeker vraagt naar een medewerker (${agent})`,
    personRequestedIntro: (agent) => `Een bezoeker in gesprek met ${agent} vroeg naar een medewerker, en er is niemand online.`,
    unseenVisitorMessageSubject: (agent) => `Een bezoeker wacht op uw antwoord (${agent})`,
    unseenVisitorMessageIntro: (agent) => `Een bezoeker in een gesprek dat u met ${agent} voert, schreef u en u hebt het nog niet gelezen.`,
    digestSubject: (count) => (count === 1 ? "1 gesprek heeft u nodig" : `${count} gesprekken hebben u nodig`),
    digestIntro: "Terwijl u weg was, hadden deze gesprekken een medewerker nodig:",
    reasonLabel: "Reden",
    lastMessageLabel: "Laatste bericht",
    pageLabel: "Pagina",
    openConversation: "Open het gesprek",
    operatorFooter: "U krijgt deze e-mails als medewerker in Frontdesk. Kies in uw profiel in de console elke melding, een samenvatting per uur of geen.",
    replySubject: (operator, agent) => `${operator} heeft u geantwoord (${agent})`,
    replyIntro: (operator) => `${operator} antwoordde terwijl u weg was:`,
    continueConversation: "Ga verder met het gesprek",
    transcriptSubject: (agent) => `Uw gesprek met ${agent}`,
    transcriptIntro: (agent) => `Hier is het verslag van uw gesprek met ${agent}.`,
    you: "U",
    visitorFooter: "U krijgt deze e-mail omdat u uw adres in de chat hebt achtergelaten. Was u dat niet, negeer hem dan.",
    answerTestsRegressedSubject: (agent, count) => (count === 1 ? `Een antwoordtest van ${agent} faalt nu` : `${count} antwoordtests van ${agent} falen nu`),
    answerTestsRegressedIntro: (agent) => `Deze vragen aan ${agent} werden bij de vorige run van de antwoordtests goed beantwoord, nu niet meer:`,
    openAnswerTests: "Antwoordtests openen",
  },
};
