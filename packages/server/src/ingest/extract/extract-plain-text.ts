import type { ExtractedDocument, ExtractInput } from "./extracted-document.js";
import { normalizeText } from "./normalize-text.js";
import { clampTitle, titleFromUrl } from "./page-title.js";

/**
 * Plain text is kept as written: line endings are normalised, invisible characters and the blank
 * lines around the text dropped. The title is the caller's, else the first non-empty line.
 */
export function extractPlainText(input: ExtractInput): ExtractedDocument {
  const text = normalizeText(input.body).replace(/^(?:[^\S\n]*\n)+/, "").trimEnd();
  const firstLine = text.split("\n").find((line) => line.trim() !== "") ?? "";
  const title = clampTitle(input.title ?? "") || clampTitle(firstLine) || titleFromUrl(input.url);
  return { title, text, sections: text === "" ? [] : [{ heading: null, text }] };
}
