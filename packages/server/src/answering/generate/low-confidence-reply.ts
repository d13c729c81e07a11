const ENGLISH = "I'm not sure about that — I couldn't find it on this site. Would you like me to connect you with a person?";

/** The honest "not found" reply, by primary language subtag. */
const REPLIES: Record<string, string> = {
  en: ENGLISH,
  fr: "Je ne suis pas sûr de la réponse — je ne l'ai pas trouvée sur ce site. Voulez-vous que je vous mette en relation avec une personne ?",
  de: "Da bin ich mir nicht sicher – ich habe dazu nichts auf dieser Website gefunden. Möchten Sie, dass ich Sie mit einer Person verbinde?",
  es: "No estoy seguro de eso: no lo he encontrado en este sitio. ¿Quiere que le ponga en contacto con una persona?",
  pt: "Não tenho certeza sobre isso — não encontrei essa informação neste site. Quer que eu coloque você em contato com uma pessoa?",
  it: "Non ne sono sicuro: non l'ho trovato su questo sito. Vuoi che ti metta in contatto con una persona?",
  nl: "Daar ben ik niet zeker van — ik kon het niet vinden op deze website. Wilt u dat ik u in contact breng met een medewerker?",
};

/** The primary language subtag of a BCP 47 tag: `fr-CA` → `fr`. */
export function primaryLanguage(language: string): string {
  return language.trim().toLowerCase().split(/[-_]/)[0] ?? "";
}

/** What the bot says when the site does not answer the question: in `language`, else English. */
export function lowConfidenceReply(language: string): string {
  return REPLIES[primaryLanguage(language)] ?? ENGLISH;
}
