import type { ComposerRule } from "../composer-rule.js";
import { continuationOf } from "../sentence-units.js";

/** The best sentence is read on to the end of its paragraph line, as a person quoting it would. */
export const readOnToEndOfLine: ComposerRule = {
  name: "the best sentence is read on to the end of its line",
  afterFirst(reply, candidate, passage, selection) {
    const next = continuationOf(passage, candidate.position);
    if (next !== null && selection.best > 0) reply.add({ members: [next], sentences: 1 });
  },
};
