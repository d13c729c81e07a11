import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queryable } from "../../src/db/database.js";
import { newId } from "../../src/db/ids.js";
import { insertWorkspace } from "../../src/tenants/workspace-repository.js";
import { insertPendingDelivery, listEndpointDeliveries, pruneEndpointDeliveries } from "../../src/webhooks/webhook-delivery-repository.js";
import { findWebhookEndpoint, insertWebhookEndpoint, listSubscribedEndpointIds, listWorkspaceWebhookEndpoints } from "../../src/webhooks/webhook-endpoint-repository.js";
import { indexesOf, plansOf } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

describeEachStore("webhooks' query paths on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("happy: every read of endpoints and deliveries goes through its index, in its order, scoped to the workspace", async () => {
    const { db } = database;
    const workspace = await insertWorkspace(db, "Acme", null);
    const endpointId = newId("whk");
    await insertWebhookEndpoint(db, { id: endpointId, workspaceId: workspace.id, url: "https://hooks.example.com/", description: "", events: ["lead.created"], secretCiphertext: "v1.x.y", secretPrefix: "whsec_abcd" });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await insertPendingDelivery(db, { endpointId, workspaceId: workspace.id, eventId: "evt_1", eventType: "lead.created", attempt, scheduledAt: new Date(Date.UTC(2026, 0, attempt)) });
    }
    // A second announcement of the same attempt queues nothing.
    expect(await insertPendingDelivery(db, { endpointId, workspaceId: workspace.id, eventId: "evt_1", eventType: "lead.created", attempt: 1, scheduledAt: new Date() })).toBeNull();
    const cursor = { scheduledAt: new Date(Date.UTC(2026, 0, 3)).toISOString(), id: "" };
    // One endpoint by id: its primary key, or (as tiny tables rightly get) the workspace's index, which the id then filters.
    const expected: [string, (tx: Queryable) => Promise<unknown>][] = [
      ["webhook_endpoints_workspace_idx", (tx) => listWorkspaceWebhookEndpoints(tx, workspace.id)],
      ["webhook_endpoints_workspace_idx", (tx) => listSubscribedEndpointIds(tx, workspace.id, "lead.created")],
      ["webhook_endpoints_pkey|webhook_endpoints_workspace_idx", (tx) => findWebhookEndpoint(tx, workspace.id, endpointId)],
      ["webhook_deliveries_endpoint_recent_idx", (tx) => listEndpointDeliveries(tx, workspace.id, endpointId, { limit: 50, before: null })],
      ["webhook_deliveries_endpoint_recent_idx", (tx) => listEndpointDeliveries(tx, workspace.id, endpointId, { limit: 50, before: cursor })],
      ["webhook_deliveries_endpoint_recent_idx|webhook_deliveries_event_attempt_idx", (tx) => pruneEndpointDeliveries(tx, endpointId, new Date(Date.UTC(2025, 0, 1)))],
    ];
    for (const [index, read] of expected) {
      const nodes = await plansOf(db, read, ["SET LOCAL enable_seqscan = off", "SET LOCAL enable_sort = off"]);
      expect(nodes.map((node) => node["Node Type"]), index).not.toContain("Sort");
      expect(nodes.map((node) => node["Node Type"]), index).not.toContain("Seq Scan");
      expect(indexesOf(nodes).some((used) => index.split("|").includes(used)), `${index}: ${indexesOf(nodes).join(", ")}`).toBe(true);
    }
    expect((await listEndpointDeliveries(db, workspace.id, endpointId, { limit: 50, before: cursor })).map((delivery) => delivery.attempt)).toEqual([2, 1]);
    // Another workspace reads nothing of it.
    const other = await insertWorkspace(db, "Other", null);
    expect(await findWebhookEndpoint(db, other.id, endpointId)).toBeNull();
    expect(await listEndpointDeliveries(db, other.id, endpointId, { limit: 50, before: null })).toEqual([]);
  });
});
