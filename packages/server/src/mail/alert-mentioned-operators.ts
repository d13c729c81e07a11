import type { MailConfig } from "../config/mail.js";
import type { Queryable } from "../db/database.js";
import type { FrontdeskEvent } from "../events/frontdesk-events.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { languagePackFor } from "../language/language-packs.js";
import { findAgent } from "../tenants/agents.js";
import { listWorkspaceOperators } from "../tenants/operators.js";
import { consoleConversationUrl } from "./mail-job-context.js";
import { findEmailAlertChoices } from "./mail-preference-repository.js";
import { mentionedInNoteMail } from "./mail-texts.js";
import { queueMail } from "./queue-mail.js";

/**
 * `note.added` with mentions: each operator the note names is e-mailed the note and the
 * conversation's link, in the note's transaction, unless they chose no e-mail alerts (a digest
 * choice gets it at once: a colleague asked for them by name). Only where mail is configured, as
 * for answer-test regressions: without SMTP the mention is in their inbox. The mail names the
 * conversation, so the visitor's erasure deletes it with the rest.
 */
export async function alertMentionedOperators(
  tx: Queryable,
  context: { jobs: JobQueue; settings: MailConfig; publicUrl: string },
  event: Extract<FrontdeskEvent, { type: "note.added" }>,
): Promise<void> {
  if (context.settings.smtpUrl === null || event.mentioned.length === 0) return;
  const { workspaceId, agentId, conversationId, visitorId } = event.conversation;
  const agent = await findAgent(tx, agentId);
  if (!agent || agent.workspaceId !== workspaceId) return;
  const mentionedIds = new Set(event.mentioned.map((mention) => mention.operatorId));
  const operators = (await listWorkspaceOperators(tx, workspaceId)).filter((operator) => mentionedIds.has(operator.id));
  const choices = await findEmailAlertChoices(tx, operators.map((operator) => operator.id));
  const content = mentionedInNoteMail(languagePackFor(agent.languageDefault), {
    authorName: event.note.author.name,
    agentName: agent.name,
    note: event.note.content,
    link: consoleConversationUrl(context.publicUrl, conversationId),
  });
  for (const operator of operators) {
    if (choices.get(operator.id) === "none") continue;
    await queueMail(tx, context.jobs, context.settings, {
      workspaceId,
      kind: "operator_mention",
      to: { address: operator.email, name: operator.name },
      content,
      operatorId: operator.id,
      visitorId,
      conversationId,
    });
  }
}
