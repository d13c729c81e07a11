/** Why the bot cannot answer: nothing in the knowledge matched, or something matched but too weakly to trust. */
export type UnsureReason = "nothing_found" | "doubtful_match";

/** The honest replies, by primary language subtag. */
const REPLIES: Record<string, Record<UnsureReason, string>> = {
  en: {
    nothing_found: "I'm not sure about that — I couldn't find it on this site. Would you like me to connect you with a person?",
    doubtful_match: "I'm not sure about that — I found pages that may be related, but none that clearly answers it. Would you like me to connect you with a person?",
  },
  fr: {
    nothing_found: "Je ne suis pas sûr de la réponse — je ne l'ai pas trouvée sur ce site. Voulez-vous que je vous mette en relation avec une personne ?",
    doubtful_match: "Je ne suis pas sûr de la réponse — j'ai trouvé des pages peut-être liées, mais aucune n'y répond clairement. Voulez-vous que je vous mette en relation avec une personne ?",
  },
  de: {
    nothing_found: "Da bin ich mir nicht sicher – ich habe dazu nichts auf dieser Website gefunden. Möchten Sie, dass ich Sie mit einer Person verbinde?",
    doubtful_match: "Da bin ich mir nicht sicher – ich habe Seiten gefunden, die damit zu tun haben könnten, aber keine beantwortet es eindeutig. Möchten Sie, dass ich Sie mit einer Person verbinde?",
  },
  es: {
    nothing_found: "No estoy seguro de eso: no lo he encontrado en este sitio. ¿Quiere que le ponga en contacto con una persona?",
    doubtful_match: "No estoy seguro de eso: he encontrado páginas que podrían estar relacionadas, pero ninguna lo responde con claridad. ¿Quiere que le ponga en contacto con una persona?",
  },
  pt: {
    nothing_found: "Não tenho certeza sobre isso — não encontrei essa informação neste site. Quer que eu coloque você em contato com uma pessoa?",
    doubtful_match: "Não tenho certeza sobre isso — encontrei páginas que podem estar relacionadas, mas nenhuma responde claramente. Quer que eu coloque você em contato com uma pessoa?",
  },
  it: {
    nothing_found: "Non ne sono sicuro: non l'ho trovato su questo sito. Vuoi che ti metta in contatto con una persona?",
    doubtful_match: "Non ne sono sicuro: ho trovato pagine forse collegate, ma nessuna risponde chiaramente. Vuoi che ti metta in contatto con una persona?",
  },
  nl: {
    nothing_found: "Daar ben ik niet zeker van — ik kon het niet vinden op deze website. Wilt u dat ik u in contact breng met een medewerker?",
    doubtful_match: "Daar ben ik niet zeker van — ik vond pagina's die ermee te maken kunnen hebben, maar geen enkele geeft een duidelijk antwoord. Wilt u dat ik u in contact breng met een medewerker?",
  },
};

/** The primary language subtag of a BCP 47 tag: `fr-CA` → `fr`. */
export function primaryLanguage(language: string): string {
  return language.trim().toLowerCase().split(/[-_]/)[0] ?? "";
}

/** What the bot says when the site does not answer the question: in `language`, else English. */
export function lowConfidenceReply(language: string, reason: UnsureReason = "nothing_found"): string {
  return (REPLIES[primaryLanguage(language)] ?? REPLIES.en!)[reason];
}
