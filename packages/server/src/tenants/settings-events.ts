import type { BusEvent } from "../realtime/event-bus.js";
import type { ApiToken } from "./api-token-repository.js";
import type { Operator } from "./operator-repository.js";

/**
 * The bus events of a workspace's settings, built from the stored rows (after the change
 * committed), so the console's routes and the admin CLI announce the same thing. Ids and the
 * role only: never a token's plaintext or hash, no password data.
 */

export const tokenEvent = (type: "token.created" | "token.revoked", token: ApiToken): BusEvent => ({
  type,
  workspaceId: token.workspaceId,
  tokenId: token.id,
  at: (type === "token.revoked" ? token.revokedAt : null) ?? token.createdAt,
});

export const operatorEvent = (type: "operator.invited" | "operator.updated" | "operator.removed", operator: Operator, at: Date): BusEvent => ({
  type,
  workspaceId: operator.workspaceId,
  operatorId: operator.id,
  role: operator.role,
  at: at.toISOString(),
});

/** The console sessions that ended (their realtime subscriptions end with them); ids only. */
export const signedOutEvent = (workspaceId: string, operatorId: string, sessionIds: string[]): BusEvent => ({
  type: "operator.signed_out",
  workspaceId,
  operatorId,
  sessionIds,
});
