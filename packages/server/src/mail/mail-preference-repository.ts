import type { EmailAlertChoice } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { textArray } from "../db/text-array.js";
import { iso } from "../db/timestamps.js";

/** An operator without a row gets every alert: being reached when away is what the feature is for. */
export const DEFAULT_EMAIL_ALERTS: EmailAlertChoice = "every";

export async function findEmailAlertChoice(db: Queryable, operatorId: string): Promise<EmailAlertChoice> {
  const { rows } = await db.query<{ email_alerts: EmailAlertChoice }>(`SELECT email_alerts FROM mail_alert_preferences WHERE operator_id = $1`, [operatorId]);
  return rows[0]?.email_alerts ?? DEFAULT_EMAIL_ALERTS;
}

export async function saveEmailAlertChoice(db: Queryable, operatorId: string, choice: EmailAlertChoice): Promise<void> {
  await db.query(
    `INSERT INTO mail_alert_preferences (operator_id, email_alerts) VALUES ($1, $2)
     ON CONFLICT (operator_id) DO UPDATE SET email_alerts = EXCLUDED.email_alerts, updated_at = now()`,
    [operatorId, choice],
  );
}

/** The choices of these operators (absent: the default). */
export async function findEmailAlertChoices(db: Queryable, operatorIds: readonly string[]): Promise<Map<string, EmailAlertChoice>> {
  const choices = new Map<string, EmailAlertChoice>(operatorIds.map((id) => [id, DEFAULT_EMAIL_ALERTS]));
  if (operatorIds.length === 0) return choices;
  const { rows } = await db.query<{ operator_id: string; email_alerts: EmailAlertChoice }>(
    `SELECT operator_id, email_alerts FROM mail_alert_preferences WHERE operator_id = ANY($1::text[])`,
    [textArray(operatorIds)],
  );
  for (const row of rows) choices.set(row.operator_id, row.email_alerts);
  return choices;
}

/** An alert kept for an operator's next hourly digest. */
export interface DigestItem {
  workspaceId: string;
  operatorId: string;
  conversationId: string;
  visitorId: string;
  kind: "operator_alert" | "operator_unseen";
  summary: string;
  pageUrl: string | null;
}

export async function insertDigestItem(tx: Queryable, item: DigestItem): Promise<void> {
  await tx.query(
    `INSERT INTO mail_digest_items (id, workspace_id, operator_id, conversation_id, visitor_id, kind, summary, page_url) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [newId("mdi"), item.workspaceId, item.operatorId, item.conversationId, item.visitorId, item.kind, item.summary, item.pageUrl],
  );
}

/** Takes (deletes and returns) every item waiting for a digest, oldest first; the caller's transaction queues the digests. */
export async function takeDigestItems(tx: Queryable): Promise<(DigestItem & { createdAt: string })[]> {
  const { rows } = await tx.query<{
    workspace_id: string; operator_id: string; conversation_id: string; visitor_id: string; kind: DigestItem["kind"]; summary: string; page_url: string | null; created_at: Date | string;
  }>(`DELETE FROM mail_digest_items RETURNING workspace_id, operator_id, conversation_id, visitor_id, kind, summary, page_url, created_at`);
  return rows
    .map((row) => ({
      workspaceId: row.workspace_id,
      operatorId: row.operator_id,
      conversationId: row.conversation_id,
      visitorId: row.visitor_id,
      kind: row.kind,
      summary: row.summary,
      pageUrl: row.page_url,
      createdAt: iso(row.created_at),
    }))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Erasure's part: the digest items about the visitors or conversations. */
export async function deleteDigestItemsAbout(tx: Queryable, workspaceId: string, about: { visitorIds: string[]; conversationIds: string[] }): Promise<void> {
  if (about.visitorIds.length > 0) {
    await tx.query(`DELETE FROM mail_digest_items WHERE workspace_id = $1 AND visitor_id = ANY($2::text[])`, [workspaceId, textArray(about.visitorIds)]);
  }
  if (about.conversationIds.length > 0) {
    await tx.query(`DELETE FROM mail_digest_items WHERE workspace_id = $1 AND conversation_id = ANY($2::text[])`, [workspaceId, textArray(about.conversationIds)]);
  }
}
