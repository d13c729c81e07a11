import type { LanguagePack } from "../language-pack.js";

export const fr: LanguagePack = {
  code: "fr",
  textSearchConfig: "french",
  stopWords: [],
  minContentWordLength: 4,
  smallTalk: {
    phrases: {
      greeting: ["bonjour", "salut", "bonsoir", "coucou"],
      thanks: ["merci", "merci beaucoup", "merci bien", "super merci"],
      goodbye: ["au revoir", "bonne journée", "bonne soirée", "à bientôt"],
      acknowledgement: ["d'accord", "ok", "oui", "non", "parfait", "super", "très bien", "compris", "non merci"],
    },
    replies: {
      greeting: "Bonjour ! Comment puis-je vous aider ?",
      thanks: "Avec plaisir ! Puis-je vous aider pour autre chose ?",
      goodbye: "Au revoir, et merci de votre visite !",
      acknowledgement: "Puis-je vous aider pour autre chose ?",
    },
    addressees: [],
  },
  personRequest: {
    articles: ["un", "une"],
    adjectives: ["vrai", "vraie"],
    nouns: ["humain", "personne", "conseill(?:er|ère)", "opérat(?:eur|rice)"],
    // "parler à un humain", "parler avec un conseiller"
    patterns: (person) => [new RegExp(`\\bparler\\s+(?:à|a|avec)\\s+${person}\\b`, "iu")],
  },
  yes: ["oui", "oui merci", "oui s'il vous plaît", "oui svp", "volontiers", "d'accord"],
  unsureReplies: {
    nothing_found: "Je ne suis pas sûr de la réponse — je ne l'ai pas trouvée sur ce site. Voulez-vous que je vous mette en relation avec une personne ?",
    doubtful_match:
      "Je ne suis pas sûr que cela réponde à votre question. Voulez-vous que je vous mette en relation avec une personne ?",
  },
  pageReplies: {
    quoting: (page) => `D'après notre page « ${page} » :`,
    mayHelp: (pages) => (pages.length === 1 ? `Cette page peut vous aider : ${pages.join("")}` : `Ces pages peuvent vous aider : ${pages.join(" ; ")}`),
  },
  backReference: /^(?:il|elle|ils|elles|cela|ceci|ce|c'|ces|cette|mais|sinon|donc|ensuite|dans ce cas)\b/iu,
  continuation: /^\s*(?:et|mais)\b/iu,
  pointingBack: null,
  detection: {
    functionWords: ["le", "la", "les", "est", "vous", "votre", "vos", "je", "mon", "ma", "mes", "quel", "quelle", "comment", "pour", "de", "des", "du", "et", "un", "une", "est-ce", "que", "qui", "avec", "pas", "ne", "puis", "combien", "où", "sur", "il", "au", "aux"],
    helpDeskWords: ["livr", "horaire", "ouverture", "rembours", "retour", "retourn", "garantie", "commande", "prix", "paiement", "annul", "compte", "mot de passe", "svp", "boutique", "magasin", "gratuit", "merci", "bonjour", "dimanche", "envoy", "expédi", "puis", "pouvez", "avez", "êtes", "y"],
    spelling: /(?:eau|aux$|ez$|^qu'|^d'|^l'|^j'|^c'|^s'|^n'|^t'|-vous$|-il$|-elle$|-je$|oi|ou)/u,
    letters: /[àâçèêëîïôœùûÿ]/u,
  },
  mail: {
    direction: "ltr",
    personRequestedSubject: (agent) => `Un visiteur demande à parler à une personne (${agent})`,
    personRequestedIntro: (agent) => `Un visiteur qui parle à ${agent} a demandé une personne, et aucun opérateur n’est en ligne.`,
    unseenVisitorMessageSubject: (agent) => `Un visiteur attend votre réponse (${agent})`,
    unseenVisitorMessageIntro: (agent) => `Un visiteur d’une conversation que vous suivez avec ${agent} vous a écrit, et vous ne l’avez pas encore lu.`,
    digestSubject: (count) => (count === 1 ? "1 conversation a besoin de vous" : `${count} conversations ont besoin de vous`),
    digestIntro: "Pendant votre absence, ces conversations demandaient une personne :",
    reasonLabel: "Motif",
    lastMessageLabel: "Dernier message",
    pageLabel: "Page",
    openConversation: "Ouvrir la conversation",
    operatorFooter: "Vous recevez ces e-mails en tant qu’opérateur de Frontdesk. Choisissez chaque alerte, un résumé horaire ou aucun dans votre profil de la console.",
    replySubject: (operator, agent) => `${operator} vous a répondu (${agent})`,
    replyIntro: (operator) => `${operator} vous a répondu pendant votre absence :`,
    continueConversation: "Reprendre la conversation",
    transcriptSubject: (agent) => `Votre conversation avec ${agent}`,
    transcriptIntro: (agent) => `Voici la transcription de votre conversation avec ${agent}.`,
    you: "Vous",
    visitorFooter: "Vous recevez cet e-mail parce que vous avez laissé votre adresse dans le chat. Si ce n’était pas vous, ignorez-le.",
    answerTestsRegressedSubject: (agent, count) => (count === 1 ? `Un test de réponse de ${agent} échoue désormais` : `${count} tests de réponse de ${agent} échouent désormais`),
    answerTestsRegressedIntro: (agent) => `Ces questions posées à ${agent} avaient une bonne réponse lors de l’exécution précédente de ses tests, plus maintenant :`,
    openAnswerTests: "Ouvrir les tests de réponse",
  },
};
