import { expect, it } from "vitest";
import { insertAgent } from "../../src/tenants/agent-repository.js";
import { insertWorkspace } from "../../src/tenants/workspace-repository.js";
import { applyMigrations, describeMigration } from "../support/migration-steps.js";

const STATES_MIGRATION = "0007-conversation-states";

describeMigration(STATES_MIGRATION, (store) => {
  it("happy: conversations with a human request (or a paused bot) become awaiting_human, the others bot; bot_paused is gone", async () => {
    const db = store();
    await applyMigrations(db, "before", STATES_MIGRATION);
    const workspace = await insertWorkspace(db, "Acme", null);
    const agent = await insertAgent(db, {
      workspaceId: workspace.id,
      name: "Bot",
      allowedOrigins: ["https://shop.test"],
      published: true,
      vertical: "general",
      personaName: "Bot",
      personaTone: "friendly",
      primaryColor: "#2563eb",
      starterPrompts: [],
      languageDefault: "en",
    });
    await db.query(`INSERT INTO visitors (id, agent_id, anon_id) VALUES ('vis_1', $1, 'anon_00000001')`, [agent.id]);
    const rows: [string, boolean, string | null][] = [
      ["cnv_plain", false, null],
      ["cnv_requested", true, "2026-01-02T03:04:05Z"],
      ["cnv_paused_only", true, null],
      ["cnv_stamp_only", false, "2026-01-02T03:04:05Z"],
    ];
    for (const [id, paused, requestedAt] of rows) {
      await db.query(
        `INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, bot_paused, human_requested_at) VALUES ($1, $2, $3, 'vis_1', $4, $5)`,
        [id, workspace.id, agent.id, paused, requestedAt],
      );
    }

    await applyMigrations(db, "from", STATES_MIGRATION);

    const migrated = await db.query<{ id: string; status: string; assignee_operator_id: string | null; closed_at: Date | null }>(
      `SELECT id, status, assignee_operator_id, closed_at FROM conversations ORDER BY id`,
    );
    expect(migrated.rows).toEqual([
      { id: "cnv_paused_only", status: "awaiting_human", assignee_operator_id: null, closed_at: null },
      { id: "cnv_plain", status: "bot", assignee_operator_id: null, closed_at: null },
      { id: "cnv_requested", status: "awaiting_human", assignee_operator_id: null, closed_at: null },
      { id: "cnv_stamp_only", status: "awaiting_human", assignee_operator_id: null, closed_at: null },
    ]);
    const columns = await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'conversations' AND column_name = 'bot_paused'`,
    );
    expect(columns.rows).toEqual([]);
    await expect(db.query(`UPDATE conversations SET status = 'open' WHERE id = 'cnv_plain'`)).rejects.toThrow();
  });
});
