import type { Logger } from "pino";
import type { Services } from "../services.js";
import { registerInboundMailMetrics } from "./inbound-mail-metrics.js";
import { pollImapMailbox } from "./poll-imap-mailbox.js";

/** The advisory lock the pollers of all processes take turns on (db/migrate.ts's SCHEMA_LOCK is another). */
export const IMAP_POLL_LOCK = 7_263_554_130;

/**
 * With FRONTDESK_IMAP_URL, polls the mailbox now and every FRONTDESK_IMAP_POLL_SECONDS after the
 * previous poll ended, in processes that run workers. Processes sharing one Postgres take turns on
 * an advisory lock, so two never hold the mailbox at once (and the second finds the first's mails
 * \Seen). A poll that fails (server down, wrong password) is logged and tried again at the next.
 */
export function registerInboundMailPoller(services: Services, logger: Logger): { close(): Promise<void> } {
  const settings = services.config.inboundMail;
  const imapUrl = settings.imapUrl;
  if (imapUrl === null) return { close: async () => undefined };
  const context = { services, logger, metrics: registerInboundMailMetrics(services.metrics) };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let closed = false;
  const poll = async () => {
    try {
      const { outcomes } = await services.db.withAdvisoryLock(IMAP_POLL_LOCK, () => pollImapMailbox(context, { ...settings, imapUrl }));
      if (outcomes.length > 0) logger.info({ mails: outcomes.length }, "IMAP mailbox polled");
    } catch (error) {
      logger.warn({ err: error }, "IMAP poll failed; trying again at the next");
    }
  };
  const tick = () => {
    running = poll().finally(() => {
      running = null;
      if (!closed) timer = setTimeout(tick, settings.imapPollMs);
    });
  };
  tick();
  logger.info({ mailbox: settings.imapMailbox, everySeconds: settings.imapPollMs / 1000 }, "polling the IMAP mailbox for replies");
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
