import type { Queryable } from "../db/database.js";
import type { Services } from "../services.js";
import { findWorkspaceOperatorsAmong, lockRoundRobinTurn, moveRoundRobinTurn } from "../tenants/agents.js";
import { onlineOperatorIds } from "./operators-online.js";

/** An operator a request was routed to. */
export interface RoutedOperator {
  id: string;
  name: string;
}

/**
 * The operator whose turn it is among `candidates` (in the turn's order, by id): the first after
 * the last one given a request, wrapping round; the first when that one is gone or never was.
 */
export function nextInTurn<T extends { id: string }>(candidates: readonly T[], lastOperatorId: string | null): T | null {
  if (candidates.length === 0) return null;
  if (lastOperatorId === null) return candidates[0] ?? null;
  return candidates.find((candidate) => candidate.id > lastOperatorId) ?? candidates[0] ?? null;
}

/**
 * In the handoff's transaction, for an agent that routes its requests round robin: the operator
 * online whose turn it is (of the agent's team, when it names any), with the agent's turn moved
 * to them; null for a `manual` agent, or when no eligible operator is online (the request waits
 * for anyone, as with `manual`). Who is online is the realtime presence of the workspace's
 * operators (shared by every process through Redis or the external server). The turn is a row
 * lock on the agent (tenants/agent-routing-repository.ts), so concurrent handoffs, in any process,
 * take turns and never both pick one operator while another is next.
 */
export async function routeHumanRequest(services: Services, tx: Queryable, conversation: { workspaceId: string; agentId: string }): Promise<RoutedOperator | null> {
  const turn = await lockRoundRobinTurn(tx, conversation.workspaceId, conversation.agentId);
  if (!turn) return null;
  const online = await onlineOperatorIds(services, conversation.workspaceId, tx);
  const eligible = turn.team.length === 0 ? online : online.filter((id) => turn.team.includes(id));
  // Only operators who still exist in the workspace (presence outlives a removal by moments).
  const candidates = await findWorkspaceOperatorsAmong(tx, conversation.workspaceId, eligible);
  const chosen = nextInTurn(candidates, turn.lastOperatorId);
  if (!chosen) return null;
  await moveRoundRobinTurn(tx, conversation.agentId, chosen.id);
  return chosen;
}
