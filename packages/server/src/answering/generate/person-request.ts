/**
 * A visitor who writes that they want a person ("can I talk to a human?", "je voudrais parler à
 * un conseiller"), or says yes when the bot, unsure, asked "Would you like me to connect you with
 * a person?", is asking for the handoff, not asking the knowledge: retrieval would answer "talk"
 * and "human" from whatever page uses them (a careers page), and "yes" with the previous question
 * again. Such a message requests a person, as the widget's "Talk to a person" does.
 */

/** Who a visitor may ask for, in the widget's seven languages. */
const PERSON =
  "(?:a |an |one |some |the |un |une |um |uma |einem |einer |een |uno |una |alguien |alguém |qualcuno |jemand(?:em)? |iemand )?(?:real |live |actual |vrai |vraie |echten? |verdadeir[ao] |vero |vera )?(?:human(?: being)?|person|people|someone|somebody|agent|operator|representative|rep|advisor|adviser|member of (?:staff|the team)|staff|humain|personne|conseill(?:er|ère)|opérat(?:eur|rice)|mensch(?:en)?|mitarbeiter(?:in)?|berater(?:in)?|humano|persona|asesor(?:a)?|operador(?:a)?|pessoa|atendente|umano|operat(?:ore|rice)|mens|medewerker)";

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

/** Yes, in the widget's seven languages: the answer to "Would you like me to connect you with a person?". */
const YES = new Set([
  "yes", "yes please", "yeah", "yep", "yup", "sure", "ok", "okay", "ok please", "please", "please do", "yes i would", "yes i would like that", "go ahead", "that would be great",
  "oui", "oui merci", "oui s'il vous plaît", "oui svp", "volontiers", "d'accord",
  "ja", "ja bitte", "gerne", "ja gerne", "okay bitte",
  "sí", "si", "sí por favor", "si por favor", "claro", "vale",
  "sim", "sim por favor", "claro que sim", "pode ser",
  "sì", "sì grazie", "sì per favore", "certo", "va bene",
  "ja graag", "graag", "ja alstublieft", "prima",
]);

/** Whether a message only says yes ("Yes please!", "oui"), punctuation and case aside. */
export function saysYes(message: string): boolean {
  const text = message.normalize("NFC").toLowerCase().replace(/[^\p{L}\p{N}' ]+/gu, " ").replace(/\s+/g, " ").trim();
  return YES.has(text);
}
