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

/**
 * The sentences of a passage, each exactly as written (only surrounding whitespace is trimmed),
 * in order. Lines are split first, so headings and list items stand alone; then each line is cut
 * by the language's sentence rules.
 */
export function splitSentences(text: string, language: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    let pending = "";
    for (const { segment } of segmenterFor(language).segment(line)) {
      pending += segment;
      if (!ABBREVIATION_BEFORE_BREAK.test(pending.trimEnd())) {
        if (pending.trim() !== "") sentences.push(pending.trim());
        pending = "";
      }
    }
    if (pending.trim() !== "") sentences.push(pending.trim());
  }
  return sentences;
}
