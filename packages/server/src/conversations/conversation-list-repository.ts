import type { ConversationListItem, ConversationStatus } from "@frontdesk/contracts";
import type { Queryable, SqlValue } from "../db/database.js";
import { iso, isoOrNull } from "../db/timestamps.js";
import { visitorIdentityOf, type VisitorIdentityColumns } from "./visitor-identity-repository.js";
import { microsecondsOf, timestampFromMicroseconds } from "../paging/page-cursor.js";
import { labelledConversationIds } from "./conversation-label-repository.js";

export const EXCERPT_LENGTH = 200;

export interface ConversationListFilter {
  workspaceId: string;
  /** Whose unread counts (and whom `assignee: "me"` means). */
  operatorId: string;
  statuses?: ConversationStatus[];
  agentId?: string;
  /** `{ none: true }`: unassigned; `{ operatorId }`: assigned to this operator. */
  assignee?: { none: true } | { operatorId: string };
  search?: string;
  /** Only the conversations carrying this label (of the workspace). */
  labelId?: string;
  /** true: only snoozed conversations; false: only those not snoozed (the open view). */
  snoozed?: boolean;
  /** The last row of the previous page: its last activity (microseconds) and id. */
  after?: { activityMicroseconds: string; id: string };
  limit: number;
}

export interface ConversationListRow {
  /** The list's item but for its labels (conversation-labels.ts adds them). */
  item: Omit<ConversationListItem, "labels">;
  activityMicroseconds: string;
  /** The last message's id when its text is empty (files sent alone): the caller names its files. */
  filesOnlyMessageId: string | null;
}

interface Row extends VisitorIdentityColumns {
  id: string;
  agent_id: string;
  status: ConversationStatus;
  assignee_id: string | null;
  assignee_name: string | null;
  visitor_id: string;
  anon_id: string;
  human_requested_at: Date | null;
  snooze_id: string | null;
  snoozed_until: Date | null;
  created_at: Date;
  last_activity_at: Date;
  activity_us: string;
  last_seq: number | null;
  last_id: string | null;
  last_role: NonNullable<ConversationListItem["last_message"]>["role"] | null;
  last_excerpt: string | null;
  last_created_at: Date | null;
  unread_count: number | string;
}

/**
 * A page of the workspace's conversations, newest activity first (ties: by id), after the cursor's
 * row: keyset pagination on (last_activity_at DESC, id), read from the workspace's activity index.
 * A conversation nobody has written in yet (a widget was opened, nothing asked) is left out unless
 * it left `bot`. The text search finds matching messages through the GIN index on their words.
 */
export async function listWorkspaceConversations(db: Queryable, filter: ConversationListFilter): Promise<ConversationListRow[]> {
  const params: SqlValue[] = [filter.workspaceId, filter.operatorId];
  const parameter = (value: SqlValue) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = [`c.workspace_id = $1`];
  if (filter.statuses) conditions.push(`c.status IN (${filter.statuses.map((status) => `${parameter(status)}::text`).join(", ")})`);
  if (filter.agentId) conditions.push(`c.agent_id = ${parameter(filter.agentId)}`);
  if (filter.assignee) {
    conditions.push("none" in filter.assignee ? `c.assignee_operator_id IS NULL` : `c.assignee_operator_id = ${parameter(filter.assignee.operatorId)}`);
  }
  if (filter.snoozed !== undefined) conditions.push(filter.snoozed ? `c.snooze_id IS NOT NULL` : `c.snooze_id IS NULL`);
  if (filter.search) {
    conditions.push(
      `c.id IN (SELECT m.conversation_id FROM messages m
         WHERE to_tsvector('simple', m.content) @@ websearch_to_tsquery('simple', ${parameter(filter.search)}) AND m.role <> 'system')`,
    );
  }
  if (filter.labelId) conditions.push(`c.id IN (${labelledConversationIds(parameter(filter.labelId))})`);
  if (filter.after) {
    const at = timestampFromMicroseconds(parameter(filter.after.activityMicroseconds));
    const id = parameter(filter.after.id);
    // The first half bounds the index scan; the second only separates the rows tied with the cursor's.
    conditions.push(`c.last_activity_at <= ${at} AND (c.last_activity_at < ${at} OR c.id > ${id})`);
  }
  conditions.push(`(last_message.seq_order IS NOT NULL OR c.status <> 'bot' OR c.human_requested_at IS NOT NULL)`);
  const limit = parameter(filter.limit);

  const { rows } = await db.query<Row>(
    `SELECT c.id, c.agent_id, c.status, c.human_requested_at, c.snooze_id, c.snoozed_until, c.created_at, c.last_activity_at,
       ${microsecondsOf("c.last_activity_at")} AS activity_us,
       assignee.id AS assignee_id, assignee.name AS assignee_name,
       v.id AS visitor_id, v.anon_id, v.user_id, v.user_email, v.user_name, v.user_verified_at,
       last_message.conversation_seq AS last_seq, last_message.id AS last_id, last_message.role AS last_role,
       last_message.excerpt AS last_excerpt, last_message.created_at AS last_created_at,
       (SELECT count(*) FROM messages unread
          WHERE unread.conversation_id = c.id AND unread.role = 'visitor'
            AND (reads.last_read_seq IS NULL OR unread.conversation_seq > reads.last_read_seq)) AS unread_count
     FROM conversations c
     JOIN visitors v ON v.id = c.visitor_id
     LEFT JOIN operators assignee ON assignee.id = c.assignee_operator_id
     LEFT JOIN conversation_reads reads ON reads.conversation_id = c.id AND reads.operator_id = $2
     LEFT JOIN LATERAL (
       SELECT m.id, m.seq AS seq_order, m.conversation_seq, m.role, left(m.content, ${EXCERPT_LENGTH}) AS excerpt, m.created_at
       FROM messages m WHERE m.conversation_id = c.id ORDER BY m.seq DESC LIMIT 1
     ) last_message ON true
     WHERE ${conditions.join(" AND ")}
     ORDER BY c.last_activity_at DESC, c.id
     LIMIT ${limit}`,
    params,
  );
  return rows.map((row) => ({
    activityMicroseconds: row.activity_us,
    filesOnlyMessageId: row.last_excerpt === "" ? row.last_id : null,
    item: {
      id: row.id,
      agent_id: row.agent_id,
      status: row.status,
      assignee: row.assignee_id && row.assignee_name !== null ? { id: row.assignee_id, name: row.assignee_name } : null,
      visitor: { id: row.visitor_id, anon_id: row.anon_id, identity: visitorIdentityOf(row) },
      last_message:
        row.last_role && row.last_excerpt !== null && row.last_created_at
          ? { seq: row.last_seq, role: row.last_role, excerpt: row.last_excerpt, created_at: iso(row.last_created_at) }
          : null,
      unread_count: Number(row.unread_count),
      human_requested_at: isoOrNull(row.human_requested_at),
      snooze: row.snooze_id === null ? null : { until: isoOrNull(row.snoozed_until) },
      created_at: iso(row.created_at),
      last_activity_at: iso(row.last_activity_at),
    },
  }));
}
