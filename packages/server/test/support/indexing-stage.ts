import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import type { Embedder } from "../../src/embeddings/embedder.js";
import type { StoreKind } from "./test-database.js";
import { adminOf, seedTenant, type Tenant } from "./seed.js";
import { createTestApp, type TestApp } from "./test-app.js";

/** What the ingest tests push sources into. */
export interface IndexingStage {
  t: TestApp;
  tenant: Tenant;
  /** A Sources API token of the tenant's workspace. */
  token: string;
}

/**
 * A test app whose ingest workers may fetch from the loopback test sites (the private-network
 * guard stays on for everything else) with `timeouts`, embedding with `embedder`; the Sources
 * rate limit lifted; a tenant and its `sync` token.
 */
export async function startIndexingStage(kind: StoreKind, embedder: Embedder, timeouts: { responseTimeoutMs: number; connectTimeoutMs: number }): Promise<IndexingStage> {
  const t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "100000" }, { embedder, workers: { allowedNetworks: ["127.0.0.1/32"], ...timeouts } });
  const tenant = await seedTenant(t.services);
  const token = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "sync" })) as { token: string }).token;
  return { t, tenant, token };
}
