import type { QuotableSentence } from "../chosen-sentence.js";
import type { ComposerRule } from "../composer-rule.js";

/**
 * A second document is quoted only when the message asks several questions and one of them shares
 * no word with what the first document gave: then its best sentence for that question, after the
 * first document's (whose last, least relevant unit makes room, and comes back if it does not fit).
 */
export const secondQuestionFromAnotherDocument: ComposerRule = {
  name: "a second question no sentence answers is answered from another document",
  complete(reply, { best, question, candidates, documentId, unitOf }) {
    if (best <= 0 || question.questions.length < 2) return;
    const covered = new Set(reply.units.flatMap((unit) => unit.members.flatMap((member) => [...member.stems])));
    const unanswered = question.questions.find((stems) => ![...stems].some((stem) => covered.has(stem)));
    const coverage = (candidate: QuotableSentence): number => (unanswered === undefined ? 0 : [...unanswered].filter((stem) => candidate.stems.has(stem)).length);
    const second = candidates
      .filter((candidate) => candidate.documentId !== documentId && coverage(candidate) > 0)
      .sort((a, b) => coverage(b) - coverage(a) || b.score - a.score)[0];
    if (second === undefined) return;
    const removed = reply.units.length > 1 && reply.full ? reply.removeLast() : undefined;
    const unit = unitOf(second, reply.room);
    if ((unit === null || !reply.add(unit)) && removed !== undefined) reply.add(removed);
  },
};
