import type { EventBody } from "@frontdesk/contracts";
import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { insertEvent } from "./event-repository.js";
import { sessionEnded } from "../conversations/conversations.js";

/** POST /events: one row of client telemetry (launcher opened, CTA clicked, …); 401 once the visitor is erased. */
export async function recordEvent(services: Services, session: WidgetSession, body: EventBody): Promise<{ id: string; event: string }> {
  const { conversation } = session;
  const id = await insertEvent(services.db, {
    workspaceId: conversation.workspaceId,
    agentId: conversation.agentId,
    conversationId: conversation.id,
    event: body.event,
    ruleId: body.rule_id ?? null,
    metadata: body.metadata ?? {},
  });
  if (id === null) throw sessionEnded();
  return { id, event: body.event };
}
