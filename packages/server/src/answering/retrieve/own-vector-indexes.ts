import type { Database } from "../../db/database.js";
import { findVectorIndexOf } from "../../tenants/agents.js";

/** How long an agent without an index of its own is believed to have none. */
const RECHECK_MS = 30_000;

/**
 * Which agents have an HNSW index of their own (migration 0051), as vector search needs to know
 * before it writes its statement. An agent's own index is permanent, so "yes" is kept; "no" is
 * read again after 30 seconds. Believing "no" a little too long costs speed, never answers: the
 * shared statement compares such an agent's vectors exactly. PGlite's agents never have one.
 */
export class OwnVectorIndexes {
  private readonly known = new Map<string, { own: boolean; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async has(db: Database, agentId: string): Promise<boolean> {
    if (db.kind !== "postgres") return false;
    const entry = this.known.get(agentId);
    if (entry && (entry.own || this.now() - entry.at < RECHECK_MS)) return entry.own;
    const own = (await findVectorIndexOf(db, agentId)).own !== null;
    this.known.set(agentId, { own, at: this.now() });
    return own;
  }
}
