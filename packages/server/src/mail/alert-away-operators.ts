import { findConversationOutline } from "../conversations/visitor-seen.js";
import type { Queryable } from "../db/database.js";
import { languagePackFor } from "../language/language-packs.js";
import { findAgent } from "../tenants/agents.js";
import { listWorkspaceOperators } from "../tenants/operators.js";
import type { MailCheck } from "./mail-check-repository.js";
import { consoleConversationUrl, type MailJobContext } from "./mail-job-context.js";
import { findEmailAlertChoices, insertDigestItem } from "./mail-preference-repository.js";
import { personRequestedMail } from "./mail-texts.js";
import { queueMail } from "./queue-mail.js";

/**
 * A conversation started waiting for a person (a `mail-check` of `human.requested`): when it still waits and no operator of the workspace is online, every
 * operator of the workspace (an invited one too: the link leads to setting a password) is told, as they chose: an e-mail now (`every`), a line in the next
 * hourly digest (`digest`), or nothing (`none`). The mail names the visitor's reason or last
 * message, the page and the console's link. One transaction: a retry after a failure repeats nothing.
 */
export async function alertAwayOperators(context: MailJobContext, check: MailCheck, done: (tx: Queryable) => Promise<void>): Promise<void> {
  const { db } = context;
  const payload = { workspaceId: check.workspaceId };
  const conversation = await findConversationOutline(db, check.workspaceId, check.conversationId);
  if (!conversation || conversation.status !== "awaiting_human") return;
  if (await context.operatorsOnline(payload.workspaceId)) return;
  const agent = await findAgent(db, conversation.agentId);
  if (!agent) return;
  const operators = await listWorkspaceOperators(db, payload.workspaceId);
  const choices = await findEmailAlertChoices(db, operators.map((operator) => operator.id));
  const pack = languagePackFor(agent.languageDefault);
  const link = consoleConversationUrl(context.publicUrl, conversation.id);
  const content = personRequestedMail(pack, {
    agentName: agent.name,
    reason: conversation.humanRequestReason,
    lastMessage: conversation.humanRequestReason ? null : conversation.lastVisitorMessage,
    pageUrl: conversation.lastPageUrl,
    link,
  });
  await db.transaction(async (tx) => {
    await done(tx);
    for (const operator of operators) {
      const choice = choices.get(operator.id);
      const about = { operatorId: operator.id, visitorId: conversation.visitorId, conversationId: conversation.id };
      if (choice === "every") {
        await queueMail(tx, context.jobs, context.settings, { workspaceId: payload.workspaceId, kind: "operator_alert", to: { address: operator.email, name: operator.name }, content, ...about });
      } else if (choice === "digest") {
        await insertDigestItem(tx, {
          workspaceId: payload.workspaceId,
          ...about,
          kind: "operator_alert",
          // A digest carries no visitor's words: it gathers several visitors, and is not erased with one.
          summary: pack.mail.personRequestedIntro(agent.name),
          pageUrl: conversation.lastPageUrl,
        });
      }
    }
  });
}
