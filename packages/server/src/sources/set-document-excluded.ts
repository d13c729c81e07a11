import type { SourceDocumentDetail } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { excludeDocument, findSourceDocument, includeDocument } from "../ingest/documents.js";
import type { Services } from "../services.js";
import { sourceNotFound } from "./resync-source.js";
import { documentNotFound, presentSourceDocumentDetail } from "./source-documents.js";
import { findWorkspaceSource, type SourceRecord } from "./source-repository.js";

/** Queues the indexing of one included document the way its source's kind indexes pages. */
async function queueReindex(services: Services, tx: Queryable, source: SourceRecord, documentId: number): Promise<void> {
  if (source.kind === "sitemap") await services.jobs.send("index-page", { sourceId: source.id, documentId }, tx);
  else if (source.kind === "wordpress") await services.jobs.send("index-wordpress-posts", { sourceId: source.id, documentIds: [documentId] }, tx);
  else await services.jobs.send("index-source", { sourceId: source.id }, tx);
}

/**
 * The console's Exclude switch (issue 32 §3). Excluding a page deletes its chunks and moves the
 * agent's knowledge revision in one transaction, then drops this process's lexical statistics of
 * the agent: the next answer cannot cite it. Re-syncs (scheduled or asked for) skip it. Including
 * it again makes it pending and queues its indexing, in the same transaction.
 */
export async function setDocumentExcluded(
  services: Services,
  workspaceId: string,
  sourceId: string,
  documentId: number,
  excluded: boolean,
): Promise<{ document: SourceDocumentDetail; source: SourceRecord }> {
  const { source, knowledgeChanged } = await services.db.transaction(async (tx) => {
    const source = await findWorkspaceSource(tx, workspaceId, sourceId);
    if (!source) throw sourceNotFound();
    if (excluded) {
      const done = await excludeDocument(tx, source.id, documentId);
      if (!done) throw documentNotFound();
      return { source, knowledgeChanged: done.hadChunks };
    }
    if (await includeDocument(tx, source.id, documentId)) await queueReindex(services, tx, source, documentId);
    return { source, knowledgeChanged: false };
  });
  if (knowledgeChanged) services.lexical.statistics.invalidate(source.agentId);
  const document = await findSourceDocument(services.db, source.id, documentId);
  if (!document) throw documentNotFound();
  return { document: presentSourceDocumentDetail(document), source };
}
