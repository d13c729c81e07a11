import { getDocumentProxy } from "unpdf";
import type { ExtractedDocument, ExtractedSection } from "./extracted-document.js";
import { FileExtractionError, MAX_PDF_PAGES } from "./file-extract-input.js";
import { normalizeText } from "./normalize-text.js";

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * pdf.js keeps every page it has read (its objects, resources and caches) until the document is
 * cleaned up or destroyed: read to the end, a 1,900-page PDF held them all. Cleaning up every 50
 * pages brought that file's extraction thread from +307 to +190 MiB (bench/ingest-file-memory.mjs).
 */
const CLEANUP_EVERY_PAGES = 50;

async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  try {
    // pdf.js takes the buffer over; a copy keeps the caller's intact.
    return await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false });
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException") throw new FileExtractionError("encrypted PDF: it needs a password to be read");
    if (name === "InvalidPDFException") throw new FileExtractionError("malformed PDF: it has no readable structure");
    throw new FileExtractionError(`unreadable PDF: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The text of a page, its lines as pdf.js marks them (an item that ends a line). */
async function pageText(pdf: PdfDocument, pageNumber: number): Promise<string> {
  const page = await pdf.getPage(pageNumber);
  const content = await page.getTextContent();
  let text = "";
  for (const item of content.items) {
    if (!("str" in item)) continue;
    text += item.str;
    if (item.hasEOL) text += "\n";
    else if (item.str !== "" && !item.str.endsWith(" ")) text += " ";
  }
  page.cleanup();
  return normalizeText(text).replace(/[^\S\n]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
}

/**
 * A PDF's text, page by page: each page is a section carrying its page number, so that its chunks
 * (cut per page) are cited at their page. Encrypted, malformed and over-long PDFs are refused
 * with their reason.
 */
export async function extractPdf(bytes: Uint8Array, title: string): Promise<ExtractedDocument> {
  const pdf = await openPdf(bytes);
  try {
    if (pdf.numPages > MAX_PDF_PAGES) {
      throw new FileExtractionError(`the PDF has ${pdf.numPages} pages; at most ${MAX_PDF_PAGES} are read`);
    }
    const sections: ExtractedSection[] = [];
    for (let page = 1; page <= pdf.numPages; page++) {
      const text = await pageText(pdf, page);
      if (text !== "") sections.push({ heading: null, text, page });
      if (page % CLEANUP_EVERY_PAGES === 0) await pdf.cleanup();
    }
    return { title, text: sections.map((section) => section.text).join("\n\n"), sections };
  } finally {
    await pdf.destroy();
  }
}
