import type { Database } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";

/**
 * `frontdesk reindex`: one `reembed-document` job per indexed document (of one agent, or all);
 * each worker re-embeds the documents whose vectors another embedder made. Returns how many.
 */
export async function scheduleReembedding(db: Database, jobs: JobQueue, agentId: string | null): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      `SELECT id::int AS id FROM documents WHERE chunk_count > 0 AND ($1::text IS NULL OR agent_id = $1) ORDER BY id`,
      [agentId],
    );
    await jobs.sendMany("reembed-document", rows.map((row) => ({ documentId: row.id })), tx);
    return rows.length;
  });
}
