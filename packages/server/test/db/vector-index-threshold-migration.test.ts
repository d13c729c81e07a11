import { expect, it } from "vitest";
import { applyMigrations, describeMigration } from "../support/migration-steps.js";

const THRESHOLD_MIGRATION = "0022-vector-index-threshold";

describeMigration(THRESHOLD_MIGRATION, (store) => {
  it("happy: the chunks stored before stay in the HNSW index and their agents stay promoted; an agent without chunks and new chunks start outside it", async () => {
    const db = store();
    await applyMigrations(db, "before", THRESHOLD_MIGRATION);
    await db.query(`INSERT INTO workspaces (id, name) VALUES ('ws_1', 'Acme')`);
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) VALUES ('agt_1', 'ws_1', 'Bot', 'Bot'), ('agt_2', 'ws_1', 'New', 'New')`);
    await db.query(`INSERT INTO sources (id, workspace_id, agent_id, kind, target_url) VALUES ('src_1', 'ws_1', 'agt_1', 'url', 'https://acme.test/'), ('src_2', 'ws_1', 'agt_2', 'url', 'https://acme.test/new')`);
    await db.query(`INSERT INTO documents (source_id, workspace_id, agent_id, url) VALUES ('src_1', 'ws_1', 'agt_1', 'https://acme.test/'), ('src_2', 'ws_1', 'agt_2', 'https://acme.test/new')`);
    const vector = `[${Array.from({ length: 384 }, (_, i) => (i % 7) / 7).join(",")}]`;
    const chunk = (agent: string) =>
      db.query(
        `INSERT INTO chunks (document_id, agent_id, chunk_index, content, token_estimate, embedder, dimensions, embedding, search_vector)
         SELECT id, agent_id, 0, 'Opening hours', 2, 'hashing:v1:384', 384, $2::vector, to_tsvector('english', 'Opening hours') FROM documents WHERE agent_id = $1`,
        [agent, vector],
      );
    await chunk("agt_1");

    await applyMigrations(db, "from", THRESHOLD_MIGRATION);
    const agents = await db.query<{ id: string; promoted: boolean }>(`SELECT id, vectors_indexed_at IS NOT NULL AS promoted FROM agents ORDER BY id`);
    expect(agents.rows).toEqual([
      { id: "agt_1", promoted: true },
      { id: "agt_2", promoted: false },
    ]);
    await chunk("agt_2");
    const chunks = await db.query<{ agent_id: string; vector_indexed: boolean }>(`SELECT agent_id, vector_indexed FROM chunks ORDER BY agent_id`);
    expect(chunks.rows).toEqual([
      { agent_id: "agt_1", vector_indexed: true },
      { agent_id: "agt_2", vector_indexed: false },
    ]);
    const indexes = await db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'chunks' AND indexname IN ('chunks_embedding_384_idx', 'chunks_exact_vectors_idx') ORDER BY indexname`,
    );
    expect(indexes.rows.map((row) => row.indexname)).toEqual(["chunks_embedding_384_idx", "chunks_exact_vectors_idx"]);
    expect(indexes.rows[0]!.indexdef).toMatch(/USING hnsw .*WHERE \(\(dimensions = 384\) AND vector_indexed\)/);
  });
});
