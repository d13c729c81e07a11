import { kindClaimedByName, kindOfMediaType } from "../files/detect-file-type.js";
import { findSourceFileContent, type SourceRecord } from "../sources/sources.js";
import { deleteDocumentsNotIn, findDocument, upsertDocuments } from "./document-repository.js";
import { indexPreparedDocument, type IndexOutcome } from "./index-document.js";
import { IngestFailure } from "./ingest-failure.js";
import type { IngestJobContext } from "./ingest-job-context.js";

const textOf = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

/** The URL a file source's document is cited by: the owner's `source_url`, else the stored file's own. */
export function fileDocumentUrl(source: SourceRecord): string {
  return textOf(source.config.source_url) ?? textOf(source.config.file_url) ?? `urn:frontdesk:source:${source.id}`;
}

const LABELS = { pdf: "a PDF", docx: "a DOCX document", markdown: "Markdown text", text: "plain text", html: "HTML", csv: "CSV text" } as const;

/** A file whose name claims PDF or DOCX when its bytes are something else (or the other way round) is refused. */
function checkNameMatchesContent(filename: string, mediaType: string): void {
  const claimed = kindClaimedByName(filename);
  const actual = kindOfMediaType(mediaType);
  if (claimed === null || actual === null || claimed === actual) return;
  const binary = (kind: string) => kind === "pdf" || kind === "docx";
  if (!binary(claimed) && !binary(actual)) return;
  throw new IngestFailure("extraction_failed", `the file is named ${filename} but its content is ${LABELS[actual]}`);
}

/**
 * Indexes a `file` source: its stored file is read on a file extraction thread, then its chunks
 * replace the document's (one document per file; a PDF's chunks carry their page). A CSV whose
 * owner chose curated answers becomes curated answers instead, and the source keeps no document.
 */
export async function indexFileSource(context: IngestJobContext, source: SourceRecord): Promise<IndexOutcome & { curatedAnswers?: number }> {
  const { db, pipeline } = context;
  const file = await findSourceFileContent(db, source.id);
  if (!file) throw new IngestFailure("empty_content", "The source's file is missing.");
  checkNameMatchesContent(file.filename, file.mediaType);
  const url = fileDocumentUrl(source);
  const prepared = await pipeline.files.prepare({
    bytes: file.content,
    mediaType: file.mediaType,
    filename: file.filename,
    url,
    title: textOf(source.config.title) ?? file.filename,
    csvMode: source.config.csv_mode === "chunks" ? "chunks" : "curated",
  });
  if (prepared.kind === "questions") {
    const sink = context.fileQuestions;
    if (!sink) throw new IngestFailure("extraction_failed", "curated answers cannot be written by this worker");
    const curatedAnswers = await db.transaction(async (tx) => {
      if ((await deleteDocumentsNotIn(tx, source.id, [])) > 0) context.onKnowledgeChanged?.(source.agentId);
      return sink.replaceSourceQuestions(tx, { workspaceId: source.workspaceId, agentId: source.agentId, sourceId: source.id, sourceUrl: textOf(source.config.source_url) }, prepared.rows);
    });
    return { kind: "indexed", chunks: 0, curatedAnswers };
  }
  // A new version under another name has another URL: the old document goes with its chunks.
  if ((await deleteDocumentsNotIn(db, source.id, [url])) > 0) context.onKnowledgeChanged?.(source.agentId);
  const [documentId] = await upsertDocuments(db, source, [url]);
  const document = await findDocument(db, documentId!);
  if (!document) throw new IngestFailure("document_deleted", "The document was deleted while it was being indexed.");
  return indexPreparedDocument(db, pipeline, document, prepared, file.content.byteLength);
}
