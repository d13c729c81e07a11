import type { MailConfig } from "../config/mail.js";
import type { Queryable } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { languagePackFor } from "../language/language-packs.js";
import { findAgent } from "../tenants/agents.js";
import { listWorkspaceOperators } from "../tenants/operators.js";
import { findEmailAlertChoices } from "./mail-preference-repository.js";
import { answerTestsRegressedMail } from "./mail-texts.js";
import { queueMail } from "./queue-mail.js";

/**
 * `answer_tests.regressed`: each admin of the workspace is e-mailed the agent's tests that passed
 * and fail now, in the run's transaction, unless they chose no e-mail alerts (an hourly digest
 * choice gets it at once: a regression is rare and not about a visitor waiting). Only where mail is
 * configured: without SMTP the alert is in the inbox and the webhook, and an old regression is not
 * worth sending when SMTP is set up later.
 */
export async function alertAnswerTestRegressions(
  tx: Queryable,
  context: { jobs: JobQueue; settings: MailConfig; publicUrl: string },
  regression: { workspaceId: string; agentId: string; tests: { question: string; reason: string }[] },
): Promise<void> {
  if (context.settings.smtpUrl === null) return;
  const agent = await findAgent(tx, regression.agentId);
  if (!agent || agent.workspaceId !== regression.workspaceId) return;
  const admins = (await listWorkspaceOperators(tx, regression.workspaceId)).filter((operator) => operator.role === "admin");
  const choices = await findEmailAlertChoices(tx, admins.map((admin) => admin.id));
  const content = answerTestsRegressedMail(languagePackFor(agent.languageDefault), {
    agentName: agent.name,
    tests: regression.tests,
    link: `${context.publicUrl}/console/answer-tests?agent=${encodeURIComponent(agent.id)}`,
  });
  for (const admin of admins) {
    if (choices.get(admin.id) === "none") continue;
    await queueMail(tx, context.jobs, context.settings, {
      workspaceId: regression.workspaceId,
      kind: "answer_tests_regressed",
      to: { address: admin.email, name: admin.name },
      content,
      operatorId: admin.id,
    });
  }
}
