import MarkdownIt from "markdown-it";
import { extractHtml } from "./extract-html.js";
import type { ExtractedDocument } from "./extracted-document.js";

// CommonMark, with raw HTML in the text kept as text: the extractor reads structure, not markup.
const markdown = new MarkdownIt("commonmark", { html: false });

/** Markdown rendered as CommonMark, then read as HTML: `#` headings stay headings, lists and tables lines. */
export function extractMarkdown(source: string, title: string, url: string): ExtractedDocument {
  const html = markdown.render(source);
  // The file is cited by its own title (its name), not by its first heading.
  return { ...extractHtml({ body: `<!doctype html><html><body><main><article>${html}</article></main></body></html>`, contentType: "text/html", url, title }), title };
}
