/** The content types the extractor understands; the fetch layer refuses everything else. */
export type ExtractableContentType = "text/html" | "application/xhtml+xml" | "text/plain";

/** What the extractor is given: a fetched page body. Plain data, so it crosses a worker boundary. */
export interface ExtractInput {
  body: string;
  contentType: ExtractableContentType;
  /** The final URL of the page (after redirects). Used as the last-resort title. */
  url: string;
  /** A title the caller already knows. Wins for plain text; for HTML the page's own title wins. */
  title?: string;
}

/** A run of text under its nearest heading (h1–h4); `heading` is null before the first heading. */
export interface ExtractedSection {
  heading: string | null;
  text: string;
  /** The page it is on, for a document with pages (a PDF). */
  page?: number;
}

/**
 * The readable content of a page.
 * `text` is the whole content: paragraphs separated by a blank line, list items and table rows on
 * their own lines, headings as their own paragraphs. `sections` is the same content cut at the
 * headings (the heading line itself is carried in `heading`, not repeated in `text`).
 */
export interface ExtractedDocument {
  title: string;
  text: string;
  sections: ExtractedSection[];
  /** The declared language of the page (BCP 47, e.g. `en-GB`), when it declared a valid one. */
  language?: string;
}

/** True when nothing readable was found; the ingestion job maps this to `empty_content`. */
export function isEmptyExtraction(document: ExtractedDocument): boolean {
  return document.text.trim() === "";
}
