import { asksSecondThing, holdsKind, type AskedKind } from "../../asked-kind.js";
import type { ComposerRule } from "../composer-rule.js";
import type { ReadQuestion } from "../read-question.js";

/** The one kind of fact the message asks for, unless it asks a second thing ("… and what does it cost?"). */
function onlyKindAsked(question: ReadQuestion): AskedKind | null {
  return question.asked.length === 1 && !asksSecondThing(question.text, question.language) ? question.asked[0]!.kind : null;
}

/**
 * When the first unit quoted states the kind of fact the question asks for ("closes at 20:00" for
 * "what time …?"), the others must state one too: "The shop has an accessible toilet" does not join it.
 */
export const statedKindThroughout: ComposerRule = {
  name: "once the kind of fact asked for is stated, every unit states one",
  admits(text, { question, first }) {
    const kind = onlyKindAsked(question);
    if (kind === null || first === null || !holdsKind(first.text, kind, question.language)) return true;
    return holdsKind(text, kind, question.language);
  },
};
