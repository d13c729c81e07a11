/**
 * Documents and knowledge revisions as other domains reach them (the console's Knowledge screen,
 * the WordPress sync, sources): `documents`, `chunks` and `knowledge_revisions` are owned by
 * ingest/.
 */
export { countDocumentsBySource, listFailedPages, markDocumentFailed, restemAgentChunks } from "./document-repository.js";
export type { DocumentCounts } from "./document-repository.js";
export { upsertRevisionsOf } from "./knowledge-revision-repository.js";
export { deleteSourceDocuments, insertPendingDocuments, requeueAllSourceDocuments, requeueDocumentsAtUrls } from "./plugin-document-repository.js";
export type { PluginSourceRef } from "./plugin-document-repository.js";
export { findSourceDocument, listSourceDocuments, listSourceDocumentUrls } from "./source-document-repository.js";
export type { DocumentChunkView, SourceDocumentDetail, SourceDocumentSummary } from "./source-document-repository.js";
export { excludeDocument, includeDocument } from "./document-exclusion-repository.js";
export type { ExcludedDocument } from "./document-exclusion-repository.js";
