/**
 * The entry point of a file extraction worker thread (see `createFileExtractionPool`): its default
 * export reads one uploaded file (PDF, DOCX, Markdown, text, HTML, CSV) and cuts it into chunks.
 * It runs under the pool's memory limit and time limit: a hostile file costs a thread, never the
 * service.
 */
import { chunkDocument } from "../chunk/chunk-document.js";
import type { DocumentChunk } from "../chunk/document-chunk.js";
import { extractDocx } from "./extract-docx.js";
import { extractHtml } from "./extract-html.js";
import { extractMarkdown } from "./extract-markdown.js";
import { extractPdf } from "./extract-pdf.js";
import { extractPlainText } from "./extract-plain-text.js";
import { questionAnswerDocument, readQuestionAnswers } from "./extract-csv.js";
import type { ExtractedDocument } from "./extracted-document.js";
import { FileExtractionError, type FileExtractInput, type PreparedFile } from "./file-extract-input.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw new FileExtractionError("the file is not UTF-8 text");
  }
}

async function extractFile(input: FileExtractInput): Promise<ExtractedDocument> {
  switch (input.mediaType) {
    case "application/pdf":
      return extractPdf(input.bytes, input.title);
    case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
      return extractDocx(input.bytes, input.title, input.url);
    case "text/markdown":
      return extractMarkdown(decodeText(input.bytes), input.title, input.url);
    case "text/html":
      return extractHtml({ body: decodeText(input.bytes), contentType: "text/html", url: input.url, title: input.title });
    case "text/plain":
      return extractPlainText({ body: decodeText(input.bytes), contentType: "text/plain", url: input.url, title: input.title });
    case "text/csv":
      return questionAnswerDocument(readQuestionAnswers(decodeText(input.bytes)), input.title);
  }
  throw new FileExtractionError(`a file of type ${input.mediaType} cannot be read`);
}

/** A paged document is chunked page by page, so that a chunk is on one page and titled with it. */
function chunksOf(document: ExtractedDocument): DocumentChunk[] {
  if (!document.sections.some((section) => section.page !== undefined)) return chunkDocument(document);
  const chunks: DocumentChunk[] = [];
  for (const section of document.sections) {
    const title = section.page === undefined ? document.title : `${document.title}, page ${section.page}`;
    for (const chunk of chunkDocument({ title, text: section.text, sections: [{ heading: section.heading, text: section.text }] })) {
      chunks.push({ ...chunk, index: chunks.length, ...(section.page === undefined ? {} : { page: section.page }) });
    }
  }
  return chunks;
}

export default async function prepareFile(input: FileExtractInput): Promise<PreparedFile> {
  if (input.mediaType === "text/csv" && input.csvMode === "curated") {
    return { kind: "questions", rows: readQuestionAnswers(decodeText(input.bytes)) };
  }
  const document = await extractFile(input);
  return { kind: "document", document, chunks: chunksOf(document) };
}
