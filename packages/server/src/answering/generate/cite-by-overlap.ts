import type { Passage } from "./answer-generator.js";
import { contentStems, overlap } from "./content-words.js";

/** An answer rests on a passage when it shares at least this many content words with it … */
const MIN_SHARED = 2;
/** … and they are at least this part of the answer's content words. */
const MIN_SHARE_OF_ANSWER = 0.4;

/**
 * The document an answer without citation markers evidently rests on: the passage sharing the
 * most content words with the answer, if it shares enough of them. Citing the top passage
 * blindly would attach a source to "I don't know, shall I find you a person?"; this leaves
 * such answers uncited and still credits a model that paraphrased a passage but forgot `[n]`.
 */
export function citeByOverlap(answer: string, passages: readonly Passage[], language: string): number | null {
  const answerStems = contentStems(answer, language);
  if (answerStems.size === 0) return null;
  let best: { documentId: number; shared: number } | null = null;
  for (const passage of passages) {
    const shared = overlap(answerStems, contentStems(`${passage.title} ${passage.heading ?? ""} ${passage.content}`, language));
    if (best === null || shared > best.shared) best = { documentId: passage.documentId, shared };
  }
  if (best === null || best.shared < MIN_SHARED || best.shared / answerStems.size < MIN_SHARE_OF_ANSWER) return null;
  return best.documentId;
}
