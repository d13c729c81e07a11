import type { Passage } from "../answer-generator.js";
import { pageName } from "../page-name.js";
import { LIST_MARKER } from "../split-sentences.js";
import type { ChosenSentence } from "./chosen-sentence.js";
import { renderReply } from "./render-reply.js";

/** The sentences of one page, next to each other in reading order. */
function byPage(sentences: readonly ChosenSentence[]): ChosenSentence[][] {
  const runs: ChosenSentence[][] = [];
  for (const sentence of sentences) {
    const run = runs.at(-1);
    if (run !== undefined && run[0]?.documentId === sentence.documentId) run.push(sentence);
    else runs.push([sentence]);
  }
  return runs;
}

/**
 * An extractive reply that says where it quotes from: what `renderReply` writes of each page's
 * sentences, led by `quoting` of the page's name ("From our Returns page: …", see `pageName`), so
 * that a visitor reads a quote of the site rather than the bot's own words. The lead goes on a
 * line of its own before a list or a table row; pages are a blank line apart, as before.
 */
export function renderNamedReply(sentences: readonly ChosenSentence[], passages: readonly Passage[], quoting: (page: string) => string): string {
  return byPage(sentences)
    .map((run) => {
      const text = renderReply(run);
      const page = passages.find((passage) => passage.documentId === run[0]?.documentId);
      const name = page === undefined ? null : pageName(page, passages);
      // A page without a title (none is indexed so) is not named; its citation still links it.
      if (name === null) return text;
      const listed = run[0]?.tableHeader !== undefined || LIST_MARKER.test(text);
      return `${quoting(name)}${listed ? "\n" : " "}${text}`;
    })
    .join("\n\n");
}
