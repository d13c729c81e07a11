import type { Queryable } from "../db/database.js";

export interface EventInput {
  workspaceId: string;
  agentId: string;
  conversationId: string;
  visitorId: string;
  event: string;
  ruleId: string | null;
  metadata: Record<string, unknown>;
}

export async function insertEvent(db: Queryable, event: EventInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO events (workspace_id, agent_id, conversation_id, visitor_id, event, rule_id, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING id::text AS id`,
    [event.workspaceId, event.agentId, event.conversationId, event.visitorId, event.event, event.ruleId, JSON.stringify(event.metadata)],
  );
  return rows[0]!.id;
}
