import type { DocumentChunk } from "../chunk/document-chunk.js";
import type { ExtractedDocument } from "./extracted-document.js";

/** An uploaded file to extract on a worker thread: plain data, so it crosses the thread boundary. */
export interface FileExtractInput {
  bytes: Uint8Array;
  /** The media type read from the content when it was uploaded (sources/detect-file-type.ts). */
  mediaType: string;
  filename: string;
  /** The URL the document is cited by. */
  url: string;
  /** The owner's title; the file's name otherwise. */
  title: string;
  /** For a CSV: its rows as curated answers, or as passages. */
  csvMode: "curated" | "chunks";
}

/** A question and its answer, from a row of a CSV. */
export interface QuestionAnswer {
  question: string;
  answer: string;
}

/** What a file becomes: a document cut into chunks, or (a CSV for curated answers) its rows. */
export type PreparedFile =
  | { kind: "document"; document: ExtractedDocument; chunks: DocumentChunk[] }
  | { kind: "questions"; rows: QuestionAnswer[] };

/** Why a file could not be read, said to its owner (`extraction_failed: encrypted PDF`). */
export class FileExtractionError extends Error {
  override readonly name = "FileExtractionError";
}

/** The most pages read from a PDF; one that declares more is refused rather than read for minutes. */
export const MAX_PDF_PAGES = 2000;
/** The most a DOCX may expand to, all its parts together, before it is refused as a zip bomb. */
export const MAX_DOCX_EXPANDED_BYTES = 100 * 1024 * 1024;
/** The most rows of a CSV taken as curated answers. */
export const MAX_CSV_ROWS = 10_000;
