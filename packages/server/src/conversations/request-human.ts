import type { ConversationStatus } from "@frontdesk/contracts";
import type { Services } from "../services.js";
import { findAgent, officeHoursStatus } from "../tenants/agents.js";
import type { WidgetSession } from "../widget/authenticate-session.js";
import { sessionEnded } from "./visitor-lock.js";
import { handToAPerson } from "./hand-to-a-person.js";
import { lockConversationState, updateHumanRequestReason } from "./conversation-state-repository.js";
import { operatorsOnline } from "./operators-online.js";

export interface HumanRequest {
  conversation_id: string;
  status: ConversationStatus;
  human_requested_at: string | null;
  reason: string | null;
  operators_online: boolean;
  outside_hours: boolean;
}

/**
 * POST /request-human: `bot` (or `closed`) → `awaiting_human`: the bot stops answering, the request
 * is stamped now, every operator of the workspace gets an inbox notification and operators are told
 * live; `human.requested` is raised with the change. While already awaiting a human, the first time is kept and a given reason replaces the
 * stored one; while an operator has the conversation (`human`), nothing changes. The answer says
 * whether any operator is online, so the widget can offer to leave an e-mail instead of waiting.
 * An agent routing round robin assigns the request at once to the next operator online
 * (hand-to-a-person.ts): the answer's status is then `human`.
 * Outside the agent's office hours the request goes through all the same (operators are alerted,
 * `human.requested` is raised with `outsideHours`, which the e-mail alerts read, and the inbox
 * notification says so), and the answer's `outside_hours` makes the widget offer the e-mail at once.
 */
export async function requestHuman(services: Services, session: WidgetSession, reason: string | null): Promise<HumanRequest> {
  const { conversation } = session;
  const agent = await findAgent(services.db, conversation.agentId);
  const outsideHours = !officeHoursStatus(agent?.officeHours ?? null, services.now()).openNow;
  const outcome = await services.db.transaction(async (tx) => {
    const before = await lockConversationState(tx, conversation.workspaceId, conversation.id);
    if (!before) throw sessionEnded();
    if (before.status === "awaiting_human" || before.status === "human") {
      if (before.status === "awaiting_human" && reason !== null) await updateHumanRequestReason(tx, before.id, reason);
      return { state: { ...before, humanRequestReason: before.status === "awaiting_human" && reason !== null ? reason : before.humanRequestReason } };
    }
    const handed = await handToAPerson(services, tx, before, { reason, outsideHours });
    return { state: handed.state };
  });
  return {
    conversation_id: conversation.id,
    status: outcome.state.status,
    human_requested_at: outcome.state.humanRequestedAt,
    reason: outcome.state.humanRequestReason,
    operators_online: await operatorsOnline(services, conversation.workspaceId),
    outside_hours: outsideHours,
  };
}
