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
      "Je ne suis pas sûr de la réponse — j'ai trouvé des pages peut-être liées, mais aucune n'y répond clairement. Voulez-vous que je vous mette en relation avec une personne ?",
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
};
