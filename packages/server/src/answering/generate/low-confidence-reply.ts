import type { UnsureReason } from "../../language/language-pack.js";
import { languagePackFor } from "../../language/language-packs.js";

export type { UnsureReason };

/** What the bot says when the site does not answer the question: in `language`, else English (the packs' `unsureReplies`). */
export function lowConfidenceReply(language: string, reason: UnsureReason = "nothing_found"): string {
  return languagePackFor(language).unsureReplies[reason];
}
