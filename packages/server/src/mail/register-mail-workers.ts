import type { Logger } from "pino";
import { operatorsOnline } from "../conversations/operators-online.js";
import type { Services } from "../services.js";
import type { MailJobContext } from "./mail-job-context.js";
import { createMailTransport } from "./mail-transport.js";
import { registerInboundMailPoller } from "./register-inbound-mail-poller.js";
import { runMailCheck } from "./run-mail-check.js";
import { releaseWaitingMail } from "./release-waiting-mails.js";
import { sendMail } from "./send-mail.js";
import { sendMailDigests } from "./send-mail-digests.js";

/** The digest's schedule: at the top of every hour (UTC). */
export const DIGEST_CRON = "0 * * * *";

/**
 * Starts this process's mail workers: the checks (away operators, unseen messages), the hourly digest and
 * `send-mail` (FRONTDESK_MAIL_CONCURRENCY). With SMTP configured, the outbox's waiting mails are
 * released first; without it, `send-mail` jobs put their mails back in the outbox. With
 * FRONTDESK_IMAP_URL, the mailbox of replies is polled too. A `worker`
 * process without Redis sees no console presence: it takes every operator for away.
 */
export async function registerMailWorkers(services: Services, logger: Logger): Promise<{ close(): Promise<void> }> {
  const settings = services.config.mail;
  const transport = await createMailTransport(settings, services.config.inboundMail.replyTo);
  const context: MailJobContext = {
    db: services.db,
    jobs: services.jobs,
    settings,
    publicUrl: services.config.publicUrl,
    resumeTokens: services.resumeTokens,
    operatorsOnline: (workspaceId) => operatorsOnline(services, workspaceId),
    now: services.now,
  };
  const sending = { db: services.db, jobs: services.jobs, transport, settings, now: services.now };
  const logged =
    <Payload>(what: string, work: (payload: Payload) => Promise<unknown>) =>
    async (payload: Payload) => {
      try {
        await work(payload);
      } catch (error) {
        logger.warn({ err: error, job: what }, "mail job failed");
        throw error;
      }
    };
  if (transport) {
    const released = await releaseWaitingMail(services.db, services.jobs);
    if (released > 0) logger.info({ released }, "mails that waited for SMTP are queued");
  } else {
    logger.info("e-mail is not set up (FRONTDESK_SMTP_URL): mails wait in the outbox");
  }
  await services.jobs.work("mail-check", 1, logged("mail-check", (payload) => runMailCheck(context, payload)));
  await services.jobs.work("send-mail-digests", 1, logged("send-mail-digests", () => sendMailDigests(context)));
  await services.jobs.schedule("send-mail-digests", DIGEST_CRON);
  if (settings.concurrency > 0) {
    await services.jobs.work("send-mail", settings.concurrency, logged("send-mail", (payload) => sendMail(sending, payload)));
  }
  const poller = registerInboundMailPoller(services, logger);
  return {
    async close() {
      await poller.close();
      transport?.close();
    },
  };
}
