import { expect, it } from "vitest";
import { applyMigrations, describeMigration } from "../support/migration-steps.js";

const REPORTS_MIGRATION = "0011-console-reports";

describeMigration(REPORTS_MIGRATION, (store) => {
  it("happy: stored conversations get their first handover (request message, else operator message, else pending request, else assignment); later changes keep it", async () => {
    const db = store();
    await applyMigrations(db, "before", REPORTS_MIGRATION);
    await db.query(`INSERT INTO workspaces (id, name) VALUES ('ws_1', 'Acme')`);
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) VALUES ('agt_1', 'ws_1', 'Bot', 'Bot')`);
    await db.query(`INSERT INTO operators (id, workspace_id, email, name, role) VALUES ('op_1', 'ws_1', 'ana@acme.test', 'Ana', 'agent')`);
    await db.query(`INSERT INTO visitors (id, agent_id, anon_id) VALUES ('vis_1', 'agt_1', 'anon_00000001')`);
    const conversation = (id: string, requested: string | null, assigned: string | null) =>
      db.query(
        `INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, human_requested_at, assignee_operator_id, assigned_at)
         VALUES ($1, 'ws_1', 'agt_1', 'vis_1', $2, $3, $4)`,
        [id, requested, assigned === null ? null : "op_1", assigned],
      );
    const message = (id: string, conversationId: string, role: string, content: string, at: string) =>
      db.query(`INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES ($1, $2, $3, $4, $5)`, [id, conversationId, role, content, at]);
    await conversation("cnv_requested_twice", null, null);
    await message("msg_1", "cnv_requested_twice", "system", "Waiting for a person to join", "2026-01-01T10:00:00Z");
    await message("msg_2", "cnv_requested_twice", "operator", "Hi", "2026-01-01T10:05:00Z");
    await message("msg_3", "cnv_requested_twice", "system", "Waiting for a person to join", "2026-01-02T10:00:00Z");
    await conversation("cnv_operator_only", null, null);
    await message("msg_4", "cnv_operator_only", "operator", "Hello", "2026-01-03T10:00:00Z");
    await conversation("cnv_pending", "2026-01-04T10:00:00Z", null);
    await conversation("cnv_assigned", null, "2026-01-05T10:00:00Z");
    await conversation("cnv_bot", null, null);
    await message("msg_5", "cnv_bot", "visitor", "Waiting for a person to join", "2026-01-06T10:00:00Z");

    await applyMigrations(db, "from", REPORTS_MIGRATION);
    const handed = async () =>
      Object.fromEntries(
        (await db.query<{ id: string; handed_to_human_at: Date | null }>(`SELECT id, handed_to_human_at FROM conversations ORDER BY id`)).rows.map((row) => [
          row.id,
          row.handed_to_human_at === null ? null : new Date(row.handed_to_human_at).toISOString(),
        ]),
      );
    expect(await handed()).toEqual({
      cnv_assigned: "2026-01-05T10:00:00.000Z",
      cnv_bot: null,
      cnv_operator_only: "2026-01-03T10:00:00.000Z",
      cnv_pending: "2026-01-04T10:00:00.000Z",
      cnv_requested_twice: "2026-01-01T10:00:00.000Z",
    });

    // The trigger: a new request stamps a conversation once; clearing it or a later request keeps the first time.
    await db.query(`UPDATE conversations SET human_requested_at = '2026-02-01T10:00:00Z' WHERE id = 'cnv_bot'`);
    await db.query(`UPDATE conversations SET human_requested_at = NULL WHERE id IN ('cnv_bot', 'cnv_pending')`);
    await db.query(`UPDATE conversations SET human_requested_at = '2026-03-01T10:00:00Z' WHERE id = 'cnv_bot'`);
    const after = await handed();
    expect(after.cnv_bot).toBe("2026-02-01T10:00:00.000Z");
    expect(after.cnv_pending).toBe("2026-01-04T10:00:00.000Z");
  });
});
