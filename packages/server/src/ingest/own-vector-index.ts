import type { Database, Queryable } from "../db/database.js";
import { claimOwnVectorIndex } from "../tenants/agents.js";

/** The advisory lock under which one process at a time builds agents' own indexes. */
const OWN_INDEX_LOCK = 0x46447669; // "FDvi"

/**
 * An agent's id (db/ids.ts): the prefix and base62 characters (22 today: 8 of time and 14 random;
 * the first releases made 20 random ones). Nothing else may reach the SQL it is written into.
 */
const AGENT_ID = /^agt_[0-9A-Za-z]{1,40}$/;

/** Where a large agent's vectors go (migration 0051). */
export interface OwnVectorIndexOptions {
  /** An agent expected to hold at least this many chunks gets an index of its own; 0: never. */
  minChunks: number;
  /** `maintenance_work_mem` of the build, in MiB: pgvector builds in memory while the graph fits. */
  buildMemoryMb: number;
}

/**
 * The agent's own HNSW index's name, which holds the agent's id (checked: it is written into the
 * index's predicate and into the statements that search it). Mixed case: SQL quotes it (`quotedName`).
 */
export function ownVectorIndexName(agentId: string): string {
  return `chunks_vectors_${checkedAgentId(agentId)}`;
}

/** `agentId` when it has the shape of an agent's id, or a thrown error: it is written into SQL as a literal. */
export function checkedAgentId(agentId: string): string {
  if (!AGENT_ID.test(agentId)) throw new Error(`not an agent id: ${JSON.stringify(agentId)}`);
  return agentId;
}

/** An index name as an SQL identifier (its characters were checked). */
const quotedName = (name: string): string => `"${name}"`;

/** The predicate of the agent's own index: its retrieval statement repeats it, literally, so that the planner can use the index. */
export function ownVectorIndexPredicate(agentId: string): string {
  return `agent_id = '${checkedAgentId(agentId)}' AND dimensions = 384`;
}

export type VectorIndexPlan = "own" | "wait" | "shared";

/**
 * Where an agent not yet in any index should go, from its chunks outside the indexes and its
 * documents still to fetch: `own` when it holds at least `minChunks` and nothing is pending;
 * `wait` while a sync still runs that is expected to bring it there (its chunks stay out of every
 * index until the sync ends, so that they are indexed once, in bulk); `shared` otherwise. Counts
 * stop at `minChunks` (an agent's rows are not all read to learn that it is large).
 */
export async function planVectorIndex(db: Queryable, agentId: string, minChunks: number): Promise<VectorIndexPlan> {
  if (minChunks <= 0) return "shared";
  const { rows } = await db.query<{ outside: number; pending: number; indexed: number }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM chunks WHERE agent_id = $1 AND dimensions = 384 AND NOT vector_indexed LIMIT $2) c)::int AS outside,
            (SELECT count(*) FROM (SELECT 1 FROM documents WHERE agent_id = $1 AND status = 'pending' LIMIT $2) p)::int AS pending,
            (SELECT count(*) FROM (SELECT 1 FROM documents WHERE agent_id = $1 AND status = 'indexed' LIMIT $2) i)::int AS indexed`,
    [agentId, minChunks],
  );
  const { outside, pending, indexed } = rows[0] ?? { outside: 0, pending: 0, indexed: 0 };
  const chunksPerDocument = Math.max(1, outside / Math.max(1, indexed));
  if (outside + pending * chunksPerDocument < minChunks) return "shared";
  return pending > 0 ? "wait" : "own";
}

/** What `buildOwnVectorIndex` found or did. */
export type OwnIndexBuild = "built" | "exists" | "refused" | "busy" | "stopped";

/**
 * Builds the agent's own HNSW index (`CREATE INDEX CONCURRENTLY`: the agent's and every other
 * agent's chunks stay writable and searchable meanwhile) after claiming it for the agent;
 * `refused` when the agent's vectors are in the shared index already. One process builds at a
 * time (an advisory lock, not waited for: `busy` while another builds, and whichever process
 * runs the upkeep next checks its work); a build a stopped process left invalid is dropped and
 * made again. `signal` (the workers stopping) cancels a build under way: `stopped`, and the
 * next start builds it. Postgres only: PGlite's agents stay small and use the shared index.
 * Agents are never deleted today; a change that deletes one must drop its index too.
 */
export async function buildOwnVectorIndex(db: Database, agentId: string, buildMemoryMb: number, signal?: AbortSignal): Promise<OwnIndexBuild> {
  const name = ownVectorIndexName(agentId);
  const outcome = await db.withAdvisoryLockIfFree(OWN_INDEX_LOCK, async (session): Promise<OwnIndexBuild> => {
    if (!(await claimOwnVectorIndex(db, agentId, name))) return "refused";
    const state = await indexState(session, name);
    if (state === "valid") return "exists";
    if (signal?.aborted) return "stopped";
    if (state === "invalid") await session.query(`DROP INDEX CONCURRENTLY IF EXISTS ${quotedName(name)}`);
    await session.query(`SET maintenance_work_mem = '${Math.max(64, Math.floor(buildMemoryMb))}MB'`);
    const { rows } = await session.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`);
    // The build is one statement of minutes: stopping cancels it from another connection.
    const cancel = () => void db.query(`SELECT pg_cancel_backend($1)`, [rows[0]!.pid]).catch(() => undefined);
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      await session.query(`CREATE INDEX CONCURRENTLY ${quotedName(name)} ON chunks USING hnsw ((embedding::vector(384)) vector_cosine_ops) WHERE ${ownVectorIndexPredicate(agentId)}`);
    } catch (error) {
      if (signal?.aborted) return "stopped";
      throw error;
    } finally {
      signal?.removeEventListener("abort", cancel);
    }
    return "built";
  });
  return outcome ?? "busy";
}

async function indexState(db: Queryable, name: string): Promise<"valid" | "invalid" | "absent"> {
  const { rows } = await db.query<{ valid: boolean }>(`SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)`, [quotedName(name)]);
  if (rows.length === 0) return "absent";
  return rows[0]!.valid ? "valid" : "invalid";
}

/** Whether the agent's own index (by name) is built and valid: the workers finish the others when they start. */
export async function ownVectorIndexIsValid(db: Queryable, name: string): Promise<boolean> {
  return (await indexState(db, name)) === "valid";
}
