/**
 * Shared `Intl.Segmenter` instances. The locale is fixed so that output never depends on the host:
 * ICU's sentence rules are language-neutral, and its word rules use dictionaries for Chinese,
 * Japanese, Thai and other scripts written without spaces whatever the locale.
 */
export const sentenceSegmenter = new Intl.Segmenter("en", { granularity: "sentence" });
export const wordSegmenter = new Intl.Segmenter("en", { granularity: "word" });
export const graphemeSegmenter = new Intl.Segmenter("en", { granularity: "grapheme" });
