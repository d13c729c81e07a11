import type { Queryable } from "../db/database.js";
import type { JobPayload } from "../jobs/job-catalog.js";
import { alertAwayOperators } from "./alert-away-operators.js";
import { deleteMailCheck, findMailCheck } from "./mail-check-repository.js";
import type { MailJobContext } from "./mail-job-context.js";
import { mailUnseenMessage } from "./mail-unseen-message.js";

/**
 * The `mail-check` job: reads its check (gone: erased, or done by an earlier run) and takes the
 * decision; the check is deleted in the transaction that queues what it decided, or after it when
 * it decided to send nothing.
 */
export async function runMailCheck(context: MailJobContext, payload: JobPayload<"mail-check">): Promise<void> {
  const check = await findMailCheck(context.db, payload.workspaceId, payload.checkId);
  if (!check) return;
  const done = (tx: Queryable) => deleteMailCheck(tx, check.id);
  if (check.kind === "away_operators") await alertAwayOperators(context, check, done);
  else await mailUnseenMessage(context, check, done);
  await deleteMailCheck(context.db, check.id);
}
