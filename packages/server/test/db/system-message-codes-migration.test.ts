import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../../src/db/database.js";
import { migrations } from "../../src/db/migrations/index.js";
import { openPgliteDatabase } from "../../src/db/pglite-database.js";
import { openPostgresDatabase } from "../../src/db/postgres-database.js";
import { createEmptyPostgresDatabase } from "../cli/frontdesk-process.js";
import { compiledWorkerUrl } from "../support/compiled-worker.js";
import { describeEachStore } from "../support/test-database.js";

const CODES_MIGRATION = "0016-system-message-codes";

/** Applies the migrations before (or from) 0016, as migrate does: statement by statement in one transaction. */
async function apply(db: Database, which: "before" | "from"): Promise<void> {
  const index = migrations.findIndex((migration) => migration.name === CODES_MIGRATION);
  const chosen = which === "before" ? migrations.slice(0, index) : migrations.slice(index);
  await db.transaction(async (tx) => {
    for (const migration of chosen) for (const statement of migration.statements) await tx.query(statement);
  });
}

describeEachStore("migration 0016-system-message-codes on %s", (kind) => {
  let db: Database;
  let drop: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    if (kind === "pglite") {
      db = await openPgliteDatabase(null, { workerUrl: compiledWorkerUrl("db/pglite-worker.js") });
    } else {
      const database = await createEmptyPostgresDatabase();
      db = await openPostgresDatabase(database.url, 2);
      drop = database.drop;
    }
  });
  afterAll(async () => {
    await db.close();
    await drop?.();
  });

  it("happy: stored system messages get their code from the service's English texts (the joined operator's name as author); other texts and roles stay without one", async () => {
    await apply(db, "before");
    await db.query(`INSERT INTO workspaces (id, name) VALUES ('ws_1', 'Acme')`);
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) VALUES ('agt_1', 'ws_1', 'Bot', 'Bot')`);
    await db.query(`INSERT INTO visitors (id, agent_id, anon_id) VALUES ('vis_1', 'agt_1', 'anon_00000001')`);
    await db.query(`INSERT INTO conversations (id, workspace_id, agent_id, visitor_id) VALUES ('cnv_1', 'ws_1', 'agt_1', 'vis_1')`);
    const stored: [string, string, string][] = [
      ["msg_1", "system", "Waiting for a person to join"],
      ["msg_2", "system", "Zoë Van der Berg joined the conversation"],
      ["msg_3", "operator", "Hi, Zoë here."],
      ["msg_4", "system", "The assistant is back"],
      ["msg_5", "system", "Conversation closed"],
      ["msg_6", "system", "Conversation reopened"],
      ["msg_7", "system", "Moved to another team"],
      ["msg_8", "system", " joined the conversation"],
      ["msg_9", "visitor", "Conversation closed"],
    ];
    for (const [id, role, content] of stored) {
      await db.query(`INSERT INTO messages (id, conversation_id, role, content, author_name) VALUES ($1, 'cnv_1', $2, $3, $4)`, [id, role, content, role === "operator" ? "Zoë" : null]);
    }

    await apply(db, "from");
    const { rows } = await db.query<{ id: string; system_code: string | null; author_name: string | null }>(`SELECT id, system_code, author_name FROM messages ORDER BY id`);
    expect(rows.map((row) => [row.id, row.system_code, row.author_name])).toEqual([
      ["msg_1", "human_requested", null],
      ["msg_2", "operator_joined", "Zoë Van der Berg"],
      ["msg_3", null, "Zoë"],
      ["msg_4", "bot_resumed", null],
      ["msg_5", "conversation_closed", null],
      ["msg_6", "conversation_reopened", null],
      ["msg_7", null, null],
      ["msg_8", null, null],
      ["msg_9", null, null],
    ]);
    // Only a system message may have a code.
    await expect(db.query(`UPDATE messages SET system_code = 'bot_resumed' WHERE id = 'msg_9'`)).rejects.toThrow(/check/i);
  });
});
