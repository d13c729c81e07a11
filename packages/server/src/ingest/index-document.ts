import type { Database } from "../db/database.js";
import { chunkEmbeddingText } from "./chunk/chunk-embedding-text.js";
import { sha256Hex } from "./content-hash.js";
import { markDocumentUnchanged, replaceDocumentChunks, type DocumentRecord, type DocumentValidators } from "./document-repository.js";
import type { ExtractInput } from "./extract/extracted-document.js";
import type { PreparedDocument } from "./extract/extraction-pool.js";
import { isEmptyExtraction } from "./extract/extracted-document.js";
import { IngestFailure } from "./ingest-failure.js";
import type { IngestPipeline } from "./ingest-pipeline.js";
import { embedMeasured } from "./measured-embedding.js";
import { reembedDocument } from "./reembed-document-job.js";
import { textSearchConfigFor } from "../language/text-search-config.js";
import { replaceChunksOfDocuments } from "./replace-chunks-of-documents.js";

/**
 * A document of more chunks than this (a large file: a 1,900-page PDF makes about 10,000) is written
 * in batches within one transaction rather than in one statement whose single JSON parameter the
 * store held whole, several times over (PGlite's WebAssembly memory never shrinks back).
 */
export const ONE_STATEMENT_MAX_CHUNKS = 200;

export type IndexOutcome = { kind: "indexed"; chunks: number } | { kind: "unchanged" };

const documentDeleted = () => new IngestFailure("document_deleted", "The document was deleted while it was being indexed.");

/**
 * Extract → chunk → embed → store for one document's content (`document` as its caller just read
 * it; `validators`, the fetched answer's, are stored with the new chunks). When the extracted
 * content hash and the embedder are unchanged since the last index, nothing is re-embedded.
 */
export async function indexDocumentContent(
  db: Database,
  pipeline: IngestPipeline,
  document: DocumentRecord,
  content: ExtractInput,
  validators?: DocumentValidators,
): Promise<IndexOutcome> {
  return indexPreparedDocument(db, pipeline, document, await pipeline.extraction.prepare(content), Buffer.byteLength(content.body, "utf8"), validators);
}

/** Chunk → embed → store for a document already extracted and chunked (a page, or an uploaded file of `contentBytes` bytes). */
export async function indexPreparedDocument(
  db: Database,
  pipeline: IngestPipeline,
  document: DocumentRecord,
  prepared: PreparedDocument,
  contentBytes: number,
  validators?: DocumentValidators,
): Promise<IndexOutcome> {
  const { document: extracted, chunks } = prepared;
  if (isEmptyExtraction(extracted)) throw new IngestFailure("empty_content", "No readable text was found on the page.");
  const contentHash = await sha256Hex(`${extracted.title}\n\n${extracted.text}`);
  const embedder = await pipeline.embedders.active(document.workspaceId);
  const embedderId = embedder.id;
  if (document.contentHash === contentHash && document.embedders.includes(embedderId)) {
    await markDocumentUnchanged(db, document.id, validators);
    return { kind: "unchanged" };
  }
  if (chunks.length === 0) throw new IngestFailure("empty_content", "No readable text was found on the page.");
  const vectors = await embedMeasured(pipeline, embedder, chunks.map(chunkEmbeddingText));
  const toStore = chunks.map((chunk, i) => ({
    index: chunk.index,
    title: chunk.title,
    heading: chunk.heading,
    content: chunk.text,
    tokenEstimate: chunk.tokenEstimate,
    embedding: vectors[i]!,
    page: chunk.page ?? null,
  }));
  const textSearchConfig = textSearchConfigFor(document.languageDefault);
  const stored =
    toStore.length > ONE_STATEMENT_MAX_CHUNKS
      ? (await db.transaction((tx) =>
          replaceChunksOfDocuments(tx, document.agentId, { embedder: embedderId, dimensions: embedder.dimensions, textSearchConfig }, [
            { id: document.id, title: extracted.title, contentHash, text: extracted.text, contentBytes, ...(validators ? { validators } : {}), chunks: toStore },
          ]),
        )) > 0
      : await replaceDocumentChunks(
          db,
          { id: document.id, agentId: document.agentId },
          {
            title: extracted.title,
            contentHash,
            embedder: embedderId,
            dimensions: embedder.dimensions,
            textSearchConfig,
            text: extracted.text,
            contentBytes,
            ...(validators ? { validators } : {}),
          },
          toStore,
        );
  if (!stored) throw documentDeleted();
  // The workspace switched embedders while this page was embedded: its vectors are made again
  // with the new one (a re-embedding that is still running picks the page up by itself).
  if ((await pipeline.embedders.activeId(db, document.workspaceId)) !== embedderId) await reembedDocument(db, pipeline, document.id);
  return { kind: "indexed", chunks: chunks.length };
}
