import type { MailConfig } from "../config/mail.js";
import type { Queryable } from "../db/database.js";
import type { DomainEventSubscriber } from "../events/domain-events.js";
import type { ConversationOfEvent, FrontdeskEvent } from "../events/frontdesk-events.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { alertAnswerTestRegressions } from "./alert-answer-test-regressions.js";
import { alertMentionedOperators } from "./alert-mentioned-operators.js";
import { insertMailCheck, type MailCheckKind } from "./mail-check-repository.js";

/**
 * The mail domain's subscriber: in the change's transaction it writes the check that will decide,
 * later and outside any request, whether someone must be e-mailed (run-mail-check.ts), and its
 * `mail-check` job, which names the check only:
 * - `human.requested`: are the workspace's operators away? (at once);
 * - `operator.replied`: has the visitor seen the reply?
 * - `visitor.message.received` in a conversation an operator has: has the assignee read it?
 * The last two wait FRONTDESK_EMAIL_UNSEEN_DELAY_SECONDS. `answer_tests.regressed` needs no later
 * decision: its mails to the admins are queued at once, as are the mails to the operators a note
 * mentions (`note.added`). Other events are not mail's concern.
 */
export const queueMailChecksOf =
  (jobs: JobQueue, settings: MailConfig, publicUrl: string): DomainEventSubscriber<FrontdeskEvent> =>
  async (tx, event) => {
    switch (event.type) {
      case "human.requested":
        return check(tx, jobs, "away_operators", event.conversation, 0, new Date(event.requestedAt));
      case "operator.replied":
        return check(tx, jobs, "unseen_by_visitor", event.conversation, event.seq, new Date(Date.parse(event.repliedAt) + settings.unseenDelayMs));
      case "visitor.message.received":
        if (event.status !== "human") return;
        return check(tx, jobs, "unseen_by_operator", event.conversation, event.seq, new Date(Date.parse(event.receivedAt) + settings.unseenDelayMs));
      case "answer_tests.regressed":
        return alertAnswerTestRegressions(tx, { jobs, settings, publicUrl }, event);
      case "note.added":
        return alertMentionedOperators(tx, { jobs, settings, publicUrl }, event);
      default:
        return;
    }
  };

async function check(tx: Queryable, jobs: JobQueue, kind: MailCheckKind, conversation: ConversationOfEvent, seq: number, dueAt: Date): Promise<void> {
  const checkId = await insertMailCheck(tx, { workspaceId: conversation.workspaceId, kind, conversationId: conversation.conversationId, visitorId: conversation.visitorId, seq, dueAt });
  await jobs.send("mail-check", { workspaceId: conversation.workspaceId, checkId }, tx, dueAt.getTime() > Date.now() ? { startAfter: dueAt } : undefined);
}
