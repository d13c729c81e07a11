/** Abbreviations after which Intl.Segmenter wrongly ends a sentence ("Dr. Smith"). */
const ABBREVIATION_BEFORE_BREAK = /(?:^|[\s(])(?:mr|mrs|ms|dr|prof|st|vs|no|nr|approx|mme|mlle|hr|fr|sr|sra|sig)\.$/i;

const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(language: string): Intl.Segmenter {
  let segmenter = segmenters.get(language);
  if (segmenter === undefined) {
    try {
      segmenter = new Intl.Segmenter(language, { granularity: "sentence" });
    } catch {
      segmenter = new Intl.Segmenter("en", { granularity: "sentence" });
    }
    segmenters.set(language, segmenter);
  }
  return segmenter;
}

/** A question or exclamation mark inside closing quotes or brackets: `"Forgotten password?"`. */
const QUOTED_MARK_BEFORE_BREAK = /[?!？！]["'”’»)\]]+$/u;

/**
 * The sentences of a passage, each exactly as written (only surrounding whitespace is trimmed),
 * in order. Lines are split first, so headings and list items stand alone; then each line is cut
 * by the language's sentence rules.
 */
export function splitSentences(text: string, language: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    // The line's sentences as segmented, surrounding whitespace included.
    const pieces: string[] = [];
    let pending = "";
    for (const { segment } of segmenterFor(language).segment(line)) {
      pending += segment;
      // A list item's number ("2. Apply …") is not a sentence of its own.
      if (ABBREVIATION_BEFORE_BREAK.test(pending.trimEnd()) || /^\d{1,3}[.)]$/.test(pending.trim())) continue;
      // A quoted label ending in "?" or "!" does not end a sentence that goes on in lower case:
      // 'click "Forgotten password?" and enter your email' is one sentence, not a question.
      const previous = pieces.at(-1);
      if (previous !== undefined && QUOTED_MARK_BEFORE_BREAK.test(previous.trimEnd()) && /^\s*\p{Ll}/u.test(pending)) pieces[pieces.length - 1] = previous + pending;
      else pieces.push(pending);
      pending = "";
    }
    pieces.push(pending);
    for (const piece of pieces) if (piece.trim() !== "") sentences.push(piece.trim());
  }
  return sentences;
}

/** A sentence of a passage with where it stands. */
export interface PassageSentence {
  text: string;
  /** Index of its block (text between blank lines) in the passage. */
  block: number;
  /** Index of its line in the passage. */
  line: number;
  /** A line standing alone without closing punctuation: a title, heading or label, never an answer sentence. */
  heading: boolean;
  /** Its line is a list item (ingest writes them `- text` or `3. text`). */
  item: boolean;
  /** Its line is a table row (ingest writes the cells joined by ` | `). */
  row: boolean;
}

/** The marker ingest writes before a list item. */
export const LIST_MARKER = /^(?:[-•*–·]|\d{1,3}[.)])\s+/u;

/** Punctuation that ends a sentence (in the widget's languages), possibly followed by closing quotes or brackets. */
const SENTENCE_END = /[.!?…:;。！？]["'”’»)\]]*$/u;

/**
 * The sentences of a passage with their block, in order. Blocks (separated by blank lines) and
 * lines are never crossed, so a heading or a page title never runs into the sentence after it;
 * a line that is alone in its block and does not end like a sentence is marked as a heading;
 * list items are marked as such (every sentence of their line), and a table row is one sentence
 * however many its cells hold.
 */
export function splitPassage(text: string, language: string): PassageSentence[] {
  const sentences: PassageSentence[] = [];
  let line = 0;
  text.split(/\r?\n[^\S\n]*\r?\n\s*/).forEach((blockText, block) => {
    const lines = blockText.split(/\r?\n/).filter((line) => line.trim() !== "");
    for (const lineText of lines) {
      const item = LIST_MARKER.test(lineText.trim());
      const row = !item && lineText.includes(" | ");
      const heading = lines.length === 1 && !item && !row && !SENTENCE_END.test(lineText.trim());
      // Its cells only make sense together ("Workshop check | Bikes only. A mechanic …").
      const parts = row ? [lineText.trim()] : splitSentences(lineText, language);
      for (const sentence of parts) sentences.push({ text: sentence, block, line, heading, item, row });
      line += 1;
    }
  });
  return sentences;
}
