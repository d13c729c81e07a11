import type { SmallTalkKind } from "../../language/language-pack.js";
import { LANGUAGE_PACKS, primaryLanguage } from "../../language/language-packs.js";

/**
 * Messages that are only a greeting, a thank-you, a goodbye or an acknowledgement ("hi", "Hello
 * there!", "thanks a lot", "merci", "tschüss", "ok", "got it") get a short reply of their own in
 * the language they were written in, instead of "I couldn't find that on this site" or the
 * previous answer again. Anything more than that ("hi, is delivery free?") is a question and goes
 * the usual way. The phrases and replies are the language packs' (`language/packs/`).
 */
export interface SmallTalk {
  kind: SmallTalkKind;
  /** The language the phrase was read in. */
  language: string;
  reply: string;
}

/** Lower-cased, accents kept, punctuation and emoji turned into spaces, spaces collapsed. */
function normalise(message: string): string {
  return message
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'’ ]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Longest phrases first, so "thank you so much" is not read as "thank you" plus extra words. */
const ENTRIES = LANGUAGE_PACKS.flatMap((pack) =>
  (Object.entries(pack.smallTalk.phrases) as [SmallTalkKind, readonly string[]][]).flatMap(([kind, phrases]) => phrases.map((phrase) => ({ language: pack.code, kind, phrase }))),
).sort((a, b) => b.phrase.length - a.phrase.length);

const REPLIES = new Map(LANGUAGE_PACKS.map((pack) => [pack.code, pack.smallTalk.replies]));

/** Words that may follow a greeting or a thank-you without making it a question, in any language. */
const ADDRESSEES = new Set(LANGUAGE_PACKS.flatMap((pack) => pack.smallTalk.addressees));

/** A message of several kinds ("thanks, bye") is answered for the one that comes first here. */
const KIND_ORDER: readonly SmallTalkKind[] = ["goodbye", "thanks", "greeting", "acknowledgement"];

/**
 * What a message that is nothing but small talk is, and the reply to it in its language (the
 * agent's language first when the phrase is shared, like "hallo"), or null for anything else. The
 * message is one phrase or several ("ok thanks, bye"), each of which may be followed by the bot's
 * name or a word like "again" ("hi Ada", "thanks again"), nothing else.
 */
export function smallTalkOf(message: string, agent: { language: string; name: string }): SmallTalk | null {
  const text = normalise(message);
  if (text === "" || text.length > 60) return null;
  const preferred = primaryLanguage(agent.language);
  const names = new Set(normalise(agent.name).split(" "));
  const words = text.split(" ");
  const found: typeof ENTRIES = [];
  for (let at = 0; at < words.length; ) {
    const rest = words.slice(at).join(" ");
    const phrase = ENTRIES.find((entry) => rest === entry.phrase || rest.startsWith(`${entry.phrase} `))?.phrase;
    if (phrase !== undefined) {
      found.push(...ENTRIES.filter((entry) => entry.phrase === phrase));
      at += phrase.split(" ").length;
    } else if (found.length > 0 && (ADDRESSEES.has(words[at]!) || names.has(words[at]!))) at += 1;
    else return null;
  }
  const kind = KIND_ORDER.find((candidate) => found.some((entry) => entry.kind === candidate));
  if (kind === undefined) return null;
  const ofKind = found.filter((entry) => entry.kind === kind);
  const best = ofKind.find((entry) => entry.language === preferred) ?? ofKind[0]!;
  return { kind, language: best.language, reply: REPLIES.get(best.language)![kind] };
}

/** The reply to a message that is nothing but small talk (see `smallTalkOf`), or null for anything else. */
export function smallTalkReply(message: string, agent: { language: string; name: string }): string | null {
  return smallTalkOf(message, agent)?.reply ?? null;
}

/** Whether a message is nothing but small talk ("thanks!", "hi there"), in any language known here. */
export function isSmallTalk(message: string): boolean {
  return smallTalkOf(message, { language: "", name: "" }) !== null;
}
