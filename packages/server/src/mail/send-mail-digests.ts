import { languagePackFor } from "../language/language-packs.js";
import { findAgentOfConversation } from "./conversation-agent.js";
import { consoleConversationUrl, type MailJobContext } from "./mail-job-context.js";
import { findEmailAlertChoices, takeDigestItems, type DigestItem } from "./mail-preference-repository.js";
import { digestMail } from "./mail-texts.js";
import { queueMail } from "./queue-mail.js";
import { findOperator } from "../tenants/operators.js";

/**
 * The hourly digest (the `send-mail-digests` job, on the workers' schedule): every operator's
 * gathered alerts become one mail, in the language of the agent of their first alert, in one
 * transaction with taking the items (a failed run leaves them for the next). An operator who
 * switched to `none` meanwhile gets nothing; one who switched to `every` still gets what was gathered.
 */
export async function sendMailDigests(context: MailJobContext): Promise<number> {
  return context.db.transaction(async (tx) => {
    const items = await takeDigestItems(tx);
    const byOperator = new Map<string, DigestItem[]>();
    for (const item of items) byOperator.set(item.operatorId, [...(byOperator.get(item.operatorId) ?? []), item]);
    const choices = await findEmailAlertChoices(tx, [...byOperator.keys()]);
    let sent = 0;
    for (const [operatorId, gathered] of byOperator) {
      if (choices.get(operatorId) === "none") continue;
      const operator = await findOperator(tx, operatorId);
      const first = gathered[0];
      if (!operator || !first) continue;
      const agent = await findAgentOfConversation(tx, first.workspaceId, first.conversationId);
      const content = digestMail(
        languagePackFor(agent?.languageDefault ?? "en"),
        gathered.map((item) => ({ summary: item.summary, pageUrl: item.pageUrl, link: consoleConversationUrl(context.publicUrl, item.conversationId) })),
      );
      // A digest gathers several visitors and quotes none of them (their items, which erasure deletes, hold no words of theirs).
      const queued = await queueMail(tx, context.jobs, context.settings, { workspaceId: first.workspaceId, kind: "operator_digest", to: { address: operator.email, name: operator.name }, content, operatorId });
      if (queued) sent += 1;
    }
    return sent;
  });
}
