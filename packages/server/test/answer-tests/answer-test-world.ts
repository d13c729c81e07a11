import type { LightMyRequestResponse } from "fastify";
import { pino } from "pino";
import { expect } from "vitest";
import type { AnswerTestRun } from "@frontdesk/contracts";
import { registerAnswerTestWorkers } from "../../src/answer-tests/register-answer-test-workers.js";
import { registerMailWorkers } from "../../src/mail/register-mail-workers.js";
import { registerWebhookWorkers } from "../../src/webhooks/register-webhook-workers.js";
import { CONSOLE, seedConsoleCast } from "../support/console-session.js";
import { LoopbackSite, pageWithBoilerplate } from "../support/loopback-site.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import type { StoreKind } from "../support/test-database.js";
import { SmtpReceiver } from "../mail/smtp-receiver.js";
import { LoopbackReceiver } from "../webhooks/loopback-receiver.js";

/** Waits until `condition` holds, outside a test (a bound for a stuck worker, not a speed requirement). */
export async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface AnswerTestWorld {
  t: TestApp;
  cast: Awaited<ReturnType<typeof seedConsoleCast>>;
  site: LoopbackSite & { policyVersion: number };
  smtp: SmtpReceiver;
  receiver: LoopbackReceiver;
  /** A console call as `session` (the admin by default). */
  call(method: "GET" | "POST" | "DELETE", path: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Waits until the run has finished (done or failed) and returns it with its results. */
  finished(runId: string): Promise<AnswerTestRun & { results: { test_id: string; passed: boolean; reason: string; regressed: boolean; answer: string }[] }>;
  close(): Promise<void>;
}

/** The returns page's words in each version: the second changes the period a right answer names. */
export const policyParagraphs = (version: number) => [
  `You can return any unused item within ${version === 1 ? "30" : "14"} days of delivery for a full refund.`,
  "Refunds are paid to the original payment method once the parcel reaches our warehouse.",
  "Return labels are printed from your account page under Orders.",
];

/**
 * A real service with its indexing, answer-test, mail and webhook workers; a loopback site whose
 * returns page can change between syncs; a real SMTP server and a webhook receiver on loopback.
 */
export async function startAnswerTestWorld(kind: StoreKind): Promise<AnswerTestWorld> {
  const site = Object.assign(new LoopbackSite(), { policyVersion: 1 });
  site.routes.set("/returns-policy", (_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(pageWithBoilerplate("Returns policy", policyParagraphs(site.policyVersion)));
  });
  await site.start();
  const smtp = new SmtpReceiver();
  await smtp.start();
  const receiver = new LoopbackReceiver();
  await receiver.start();
  const t = await createTestApp(
    kind,
    {
      FRONTDESK_ANSWER_TESTS_DEBOUNCE_SECONDS: "0",
      FRONTDESK_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1",
      FRONTDESK_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      FRONTDESK_MAIL_FROM: "Acme Support <support@acme.test>",
      FRONTDESK_SMTP_TIMEOUT_SECONDS: "5",
    },
    { workers: { allowedNetworks: ["127.0.0.1/32"], responseTimeoutMs: 3000, connectTimeoutMs: 2000 } },
  );
  const cast = await seedConsoleCast(t);
  const silent = pino({ level: "silent" });
  const workers = [
    await registerAnswerTestWorkers(t.services, silent),
    await registerMailWorkers(t.services, silent),
    await registerWebhookWorkers(t.services, silent, { resolve: async () => [{ address: "127.0.0.1", family: 4 }] }),
  ];
  const call: AnswerTestWorld["call"] = (method, path, payload, headers = cast.admin.headers) =>
    t.app.inject({ method, url: `${CONSOLE}${path}`, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return {
    t,
    cast,
    site,
    smtp,
    receiver,
    call,
    async finished(runId) {
      let run: Awaited<ReturnType<AnswerTestWorld["finished"]>> | null = null;
      await expect
        .poll(
          async () => {
            const response = await call("GET", `/answer-tests/runs/${runId}`);
            expect(response.statusCode, response.body).toBe(200);
            run = response.json().data;
            return run!.status;
          },
          { timeout: 60_000, interval: 200 },
        )
        .toMatch(/^(done|failed)$/);
      return run!;
    },
    async close() {
      receiver.release();
      for (const worker of workers) await worker.close();
      await t.close();
      await receiver.close();
      await smtp.close();
      await site.stop();
    },
  };
}
