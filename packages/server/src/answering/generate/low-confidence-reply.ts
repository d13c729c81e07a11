import type { UnsureReason } from "../../language/language-pack.js";
import { languagePackFor } from "../../language/language-packs.js";

export type { UnsureReason };

/**
 * What the bot says when the site does not answer the question: in `language`, else English (the
 * packs' `unsureReplies`). A doubtful match names the `pages` it offers first ("This page may
 * help: Returns"), then says the bot is unsure they answer and offers a person.
 */
export function lowConfidenceReply(language: string, reason: UnsureReason = "nothing_found", pages: readonly string[] = []): string {
  const pack = languagePackFor(language);
  const unsure = pack.unsureReplies[reason];
  return reason === "doubtful_match" && pages.length > 0 ? `${pack.pageReplies.mayHelp(pages)}\n${unsure}` : unsure;
}
