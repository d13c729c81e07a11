import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queryable } from "../../src/db/database.js";
import { listAgentSources } from "../../src/sources/source-repository.js";
import { insertAgent, listWorkspaceAgents } from "../../src/tenants/agent-repository.js";
import { listWorkspaceApiTokens } from "../../src/tenants/api-token-repository.js";
import { listWorkspaceOperators } from "../../src/tenants/operator-repository.js";
import { insertWorkspace, listWorkspaces } from "../../src/tenants/workspace-repository.js";
import { indexesOf, plansOf } from "../support/query-plans.js";
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
      // Tables this small would be scanned anyway; forbidding scans and sorts leaves only a fitting index.
      const nodes = await plansOf(db, list, ["SET LOCAL enable_seqscan = off", "SET LOCAL enable_sort = off"]);
      expect(nodes.map((node) => node["Node Type"]), index).not.toContain("Sort");
      expect(nodes.map((node) => node["Node Type"]), index).not.toContain("Seq Scan");
      expect(indexesOf(nodes), index).toContain(index);
    }
  });
});
