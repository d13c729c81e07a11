import { extractHtml } from "./extract-html.js";
import { extractPlainText } from "./extract-plain-text.js";
import type { ExtractedDocument, ExtractInput } from "./extracted-document.js";

/**
 * Turns a fetched page into its readable text, title and sections. Pure and synchronous CPU work:
 * run it through the extraction worker pool, not on the event loop. An empty result (no text, see
 * `isEmptyExtraction`) is not an error here; the ingestion job reports it as `empty_content`.
 */
export function extractDocument(input: ExtractInput): ExtractedDocument {
  switch (input.contentType) {
    case "text/html":
    case "application/xhtml+xml":
      return extractHtml(input);
    case "text/plain":
      return extractPlainText(input);
  }
  throw new Error(`cannot extract content of type ${String(input.contentType)}`);
}
