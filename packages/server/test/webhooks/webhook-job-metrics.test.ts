import { pino } from "pino";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startWorkers } from "../../src/cli/start-workers.js";
import { newId } from "../../src/db/ids.js";
import { insertWebhookEndpoint } from "../../src/webhooks/webhook-endpoint-repository.js";
import { createWebhookServices } from "../../src/webhooks/webhook-services.js";
import { parsePrometheusText, sampleValue } from "../support/prometheus-text.js";
import { bearer, seedTenant, SITE_ORIGIN, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { LoopbackReceiver } from "./loopback-receiver.js";

describeEachStore("the workers' job metrics on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let workers: { close(): Promise<void> };
  const receiver = new LoopbackReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp(kind, { FRONTDESK_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1" });
    tenant = await seedTenant(t.services);
    // The workers as serve and worker start them: ingestion, retention, re-sync ticks and webhook deliveries.
    workers = await startWorkers(t.services, pino({ level: "silent" }));
  });
  afterAll(async () => {
    await t.services.jobs.stop();
    await workers.close();
    await t.close();
    await receiver.close();
  });

  const processed = async (name: string, outcome: string) =>
    sampleValue(parsePrometheusText(await t.services.metrics.metrics()), "frontdesk_jobs_processed_total", { name, outcome });

  it("happy: webhook deliveries are counted in frontdesk_jobs_processed_total like the indexing jobs, and every job name is there from the start", async () => {
    for (const name of ["deliver-webhook", "purge-retention", "schedule-resyncs", "index-source"]) expect(await processed(name, "completed"), name).toBe(0);
    const webhooks = await createWebhookServices(t.services.config);
    const id = newId("whk");
    await insertWebhookEndpoint(t.services.db, {
      id,
      workspaceId: tenant.workspaceId,
      url: receiver.on("/counted", (res) => res.end("ok")),
      description: "",
      events: ["lead.created"],
      secretCiphertext: webhooks.secrets.seal("whsec_counted", id),
      secretPrefix: "whsec_counted",
    });
    await webhooks.close();
    const session = await startSession(t.app, tenant.agentId);
    const lead = await t.app.inject({ method: "POST", url: "/api/v1/widget/leads", headers: { ...bearer(session.jwt), origin: SITE_ORIGIN }, payload: { email: "counted@example.com" } });
    expect(lead.statusCode, lead.body).toBe(201);
    await vi.waitFor(() => expect(receiver.at("/counted")).toHaveLength(1), { timeout: 15_000, interval: 50 });
    await vi.waitFor(async () => expect(await processed("deliver-webhook", "completed")).toBe(1), { timeout: 5_000, interval: 50 });
  });
});
