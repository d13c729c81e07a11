import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queryable, QueryResult, SqlValue } from "../../src/db/database.js";
import { listAgentSources } from "../../src/sources/source-repository.js";
import { insertAgent, listWorkspaceAgents } from "../../src/tenants/agent-repository.js";
import { listWorkspaceApiTokens } from "../../src/tenants/api-token-repository.js";
import { listWorkspaceOperators } from "../../src/tenants/operator-repository.js";
import { insertWorkspace, listWorkspaces } from "../../src/tenants/workspace-repository.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

/** Runs each statement for real, after recording the plan the store chose for it. */
function explaining(tx: Queryable, plans: PlanNode[][]): Queryable {
  return {
    async query<Row>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>> {
      const { rows } = await tx.query<{ "QUERY PLAN": [{ Plan: PlanNode }] | string }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      const raw = rows[0]!["QUERY PLAN"];
      const explained = (typeof raw === "string" ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
      plans.push(nodesOf(explained[0].Plan));
      return tx.query<Row>(sql, params);
    },
  };
}

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
