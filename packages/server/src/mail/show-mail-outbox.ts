import type { MailOutbox } from "@frontdesk/contracts";
import type { Services } from "../services.js";
import { countWorkspaceMails, listWorkspaceMails, type MailStatus } from "./mail-repository.js";

/** What an admin is told about the workspace's e-mail (GET /console/mail). */
export async function showMailOutbox(services: Services, workspaceId: string, query: { status?: MailStatus | undefined; limit: number }): Promise<MailOutbox> {
  const configured = services.config.mail.smtpUrl !== null;
  const counts = await countWorkspaceMails(services.db, workspaceId);
  const messages = await listWorkspaceMails(services.db, workspaceId, query);
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const notice = !configured
    ? counts.waiting > 0
      ? `E-mail is not set up: ${plural(counts.waiting, "message", "messages")} waiting`
      : "E-mail is not set up: set FRONTDESK_SMTP_URL and FRONTDESK_MAIL_FROM"
    : counts.failed > 0
      ? `${plural(counts.failed, "e-mail", "e-mails")} could not be delivered`
      : null;
  return { smtp_configured: configured, notice, counts, messages };
}
