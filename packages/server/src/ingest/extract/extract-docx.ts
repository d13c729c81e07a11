import { unzipSync } from "fflate";
import mammoth from "mammoth";
import { extractHtml } from "./extract-html.js";
import type { ExtractedDocument } from "./extracted-document.js";
import { FileExtractionError, MAX_DOCX_EXPANDED_BYTES } from "./file-extract-input.js";

/**
 * What the DOCX's parts declare they expand to, read from its zip directory without inflating
 * anything: a zip bomb is refused before a byte of it is inflated. (A directory that lies about
 * sizes is caught by the worker's memory limit instead.)
 */
function checkExpandedSize(bytes: Uint8Array): void {
  let expanded = 0;
  let hasDocument = false;
  try {
    unzipSync(bytes, {
      filter(file) {
        expanded += file.originalSize;
        if (file.name === "word/document.xml") hasDocument = true;
        return false;
      },
    });
  } catch (error) {
    throw new FileExtractionError(`malformed DOCX: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!hasDocument) throw new FileExtractionError("malformed DOCX: it has no word/document.xml");
  if (expanded > MAX_DOCX_EXPANDED_BYTES) {
    throw new FileExtractionError(`the DOCX expands to ${expanded} bytes, over the ${MAX_DOCX_EXPANDED_BYTES} read (a zip bomb?)`);
  }
}

/**
 * A DOCX through mammoth's HTML (headings as h1–h6, tables as tables), then the HTML extractor:
 * headings stay headings, table rows become lines of text.
 */
export async function extractDocx(bytes: Uint8Array, title: string, url: string): Promise<ExtractedDocument> {
  checkExpandedSize(bytes);
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value;
  } catch (error) {
    throw new FileExtractionError(`unreadable DOCX: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The file is cited by its own title (its name), not by its first heading.
  return { ...extractHtml({ body: `<!doctype html><html><body><main><article>${html}</article></main></body></html>`, contentType: "text/html", url, title }), title };
}
