import { primaryLanguage } from "./low-confidence-reply.js";

/**
 * A visitor who writes that they want a person ("can I talk to a human?", "je voudrais parler à
 * un conseiller") is asking for the handoff, not asking the knowledge: retrieval would answer
 * "talk" and "human" from whatever page uses them (a careers page). Such a message gets an offer
 * instead: a reply in the visitor's language, flagged low confidence so the widget shows its
 * "Talk to a person" button under it (the same request as after any reply the bot was unsure of).
 */

/** Who a visitor may ask for, in the widget's seven languages. */
const PERSON =
  "(?:a |an |one |some |the |un |une |um |uma |einem |einer |een |uno |una |alguien |alguém |qualcuno |jemand(?:em)? |iemand )?(?:real |live |actual |vrai |vraie |echten? |echte |real |de verdad |verdadeir[ao] |vero |vera )?(?:human(?: being)?|person|people|someone|somebody|agent|operator|representative|rep|advisor|adviser|member of (?:staff|the team)|staff|humain|personne|conseill(?:er|ère)|opérat(?:eur|rice)|mensch(?:en)?|mitarbeiter(?:in)?|berater(?:in)?|humano|persona|asesor(?:a)?|operador(?:a)?|pessoa|atendente|umano|operat(?:ore|rice)|mens|medewerker)";

/** Ways of asking for one; each must hold the whole request, not a word of a longer question. */
const REQUESTS: readonly RegExp[] = [
  // "talk to a human", "speak with someone", "chat to a real person", "connect me to an agent"
  new RegExp(`\\b(?:talk|speak|chat|connect me|put me through|transfer me)\\s+(?:to|with)\\s+${PERSON}\\b`, "iu"),
  // "a real person please", "live agent", "human please", "agent"
  new RegExp(`^\\s*(?:(?:i want|i need|i'd like|i would like|can i have|can i get|get me)\\s+)?${PERSON}(?:\\s+please)?\\s*[.!?]*\\s*$`, "iu"),
  new RegExp(`\\b(?:real|live|actual)\\s+(?:human|person|agent|operator)\\b`, "iu"),
  // fr: "parler à un humain", "parler avec un conseiller"
  new RegExp(`\\bparler\\s+(?:à|a|avec)\\s+${PERSON}\\b`, "iu"),
  // de: "mit einem Menschen sprechen", "mit einem Mitarbeiter reden"
  new RegExp(`\\bmit\\s+${PERSON}\\s+(?:sprechen|reden|chatten)\\b`, "iu"),
  // es / pt: "hablar con una persona", "falar com um atendente"
  new RegExp(`\\b(?:hablar|falar)\\s+(?:con|com)\\s+${PERSON}\\b`, "iu"),
  // it: "parlare con un operatore"
  new RegExp(`\\bparlare\\s+con\\s+${PERSON}\\b`, "iu"),
  // nl: "spreken met een medewerker", "praten met een mens"
  new RegExp(`\\b(?:spreken|praten|chatten)\\s+met\\s+${PERSON}\\b`, "iu"),
];

/** Whether a message asks for a person rather than asking a question of the knowledge. */
export function asksForPerson(message: string): boolean {
  const text = message.normalize("NFC").replace(/\s+/g, " ").trim();
  return text.length <= 160 && REQUESTS.some((request) => request.test(text));
}

const OFFERS: Record<string, string> = {
  en: "Of course — I can connect you with a person.",
  fr: "Bien sûr — je peux vous mettre en relation avec une personne.",
  de: "Natürlich – ich kann Sie mit einer Person verbinden.",
  es: "Por supuesto: puedo ponerle en contacto con una persona.",
  pt: "Claro — posso colocar você em contato com uma pessoa.",
  it: "Certo: posso metterti in contatto con una persona.",
  nl: "Natuurlijk — ik kan u in contact brengen met een medewerker.",
};

/** The reply to a request for a person: in `language`, else English. */
export function personOfferReply(language: string): string {
  return OFFERS[primaryLanguage(language)] ?? OFFERS.en!;
}
