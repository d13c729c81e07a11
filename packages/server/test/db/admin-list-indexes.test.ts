import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queryable } from "../../src/db/database.js";
import { listAgentSources } from "../../src/sources/source-repository.js";
import { insertAgent, listWorkspaceAgents } from "../../src/tenants/agent-repository.js";
import { listWorkspaceApiTokens } from "../../src/tenants/api-token-repository.js";
import { listWorkspaceOperators } from "../../src/tenants/operator-repository.js";
import { insertWorkspace, listWorkspaces } from "../../src/tenants/workspace-repository.js";
import { explaining, type PlanNode } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

describeEachStore("the admin CLI's lists on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("happy: each list reads its order from an index, never scanning or sorting the table", async () => {
    const { db } = database;
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
    const expected: [string, (tx: Queryable) => Promise<unknown>][] = [
      ["workspaces_created_idx", (tx) => listWorkspaces(tx)],
      ["agents_workspace_created_idx", (tx) => listWorkspaceAgents(tx, workspace.id)],
      ["operators_workspace_created_idx", (tx) => listWorkspaceOperators(tx, workspace.id)],
      ["api_tokens_workspace_created_idx", (tx) => listWorkspaceApiTokens(tx, workspace.id)],
      ["sources_agent_created_idx", (tx) => listAgentSources(tx, agent.id)],
    ];
    for (const [index, list] of expected) {
      const plans: PlanNode[][] = [];
      await db.transaction(async (tx) => {
        // Tables this small would be scanned anyway; forbidding scans and sorts leaves only a fitting index.
        await tx.query("SET LOCAL enable_seqscan = off");
        await tx.query("SET LOCAL enable_sort = off");
        await list(explaining(tx, plans));
      });
      const nodes = plans.flat();
      expect(nodes.map((node) => node["Node Type"]), index).not.toContain("Sort");
      expect(nodes.map((node) => node["Node Type"]), index).not.toContain("Seq Scan");
      expect(nodes.map((node) => node["Index Name"]), index).toContain(index);
    }
  });
});
