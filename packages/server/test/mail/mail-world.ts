import { pino } from "pino";
import { expect } from "vitest";
import type { MailMessage, MailOutbox } from "@frontdesk/contracts";
import { registerMailWorkers } from "../../src/mail/register-mail-workers.js";
import type { Services } from "../../src/services.js";
import { CONSOLE, seedConsoleCast } from "../support/console-session.js";
import { bearer, startSession, type StartedSession } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import type { StoreKind } from "../support/test-database.js";

export const W = "/api/v1/widget";

export interface MailWorld {
  t: TestApp;
  cast: Awaited<ReturnType<typeof seedConsoleCast>>;
  /** Starts the mail workers of `services` (a restart with another configuration: pass other services). */
  startWorkers(services?: Services): Promise<void>;
  /** The workspace's outbox as an admin reads it. */
  outbox(): Promise<MailOutbox>;
  /** Waits until the mail to `address` has left `queued`/`sending`/`retrying`, and returns it. */
  settledMailTo(address: string, timeoutMs?: number): Promise<MailMessage>;
  /** A visitor on the site who left `email` (POST /leads). */
  visitorWithLead(email: string): Promise<StartedSession>;
  close(): Promise<void>;
}

/** A real service with its console cast and, once started, its mail workers: what the mail tests share. */
export async function startMailWorld(kind: StoreKind, environment: Record<string, string>): Promise<MailWorld> {
  const t = await createTestApp(kind, {
    FRONTDESK_MAIL_FROM: "Acme Support <support@acme.test>",
    FRONTDESK_EMAIL_UNSEEN_DELAY_SECONDS: "0",
    FRONTDESK_MAIL_RETRY_BASE_MS: "200",
    FRONTDESK_SMTP_TIMEOUT_SECONDS: "2",
    FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000",
    FRONTDESK_RATE_LIMIT_LEADS_PER_MINUTE: "1000",
    ...environment,
  });
  const cast = await seedConsoleCast(t);
  const workers: { close(): Promise<void> }[] = [];
  const outbox = async () => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/mail?limit=200`, headers: cast.admin.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as MailOutbox;
  };
  return {
    t,
    cast,
    async startWorkers(services = t.services) {
      workers.push(await registerMailWorkers(services, pino({ level: "silent" })));
    },
    outbox,
    async settledMailTo(address, timeoutMs = 30_000) {
      let found: MailMessage | undefined;
      await expect
        .poll(
          async () => {
            found = (await outbox()).messages.find((mail) => mail.to === address);
            return found && !["queued", "sending", "retrying"].includes(found.status) ? found.status : "pending";
          },
          { timeout: timeoutMs, interval: 100 },
        )
        .not.toBe("pending");
      return found!;
    },
    async visitorWithLead(email) {
      const session = await startSession(t.app, cast.tenant.agentId);
      const lead = await t.app.inject({ method: "POST", url: `${W}/leads`, headers: bearer(session.jwt), payload: { email } });
      expect(lead.statusCode, lead.body).toBeLessThan(300);
      return session;
    },
    async close() {
      for (const worker of workers) await worker.close();
      await t.close();
    },
  };
}
