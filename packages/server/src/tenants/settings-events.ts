import type { FrontdeskEvent } from "../events/frontdesk-events.js";
import type { ApiToken } from "./api-token-repository.js";
import type { Operator } from "./operator-repository.js";

/**
 * The events of a workspace's settings, built from the stored rows, so the console's routes (which
 * raise them) and the admin CLI (which publishes them as they are to the bus of `serve`) announce
 * the same thing. Ids and the role only: never a token's plaintext or hash, no password data.
 */

type SettingsEvent<Type extends FrontdeskEvent["type"]> = Extract<FrontdeskEvent, { type: Type }>;

export const tokenEvent = (type: "token.created" | "token.revoked", token: ApiToken): SettingsEvent<"token.created" | "token.revoked"> => ({
  type,
  workspaceId: token.workspaceId,
  tokenId: token.id,
  at: (type === "token.revoked" ? token.revokedAt : null) ?? token.createdAt,
});

export const operatorEvent = (
  type: "operator.invited" | "operator.updated" | "operator.removed",
  operator: Operator,
  at: Date,
): SettingsEvent<"operator.invited" | "operator.updated" | "operator.removed"> => ({
  type,
  workspaceId: operator.workspaceId,
  operatorId: operator.id,
  role: operator.role,
  at: at.toISOString(),
});

/** The console sessions that ended (their realtime subscriptions end with them); ids only. */
export const signedOutEvent = (workspaceId: string, operatorId: string, sessionIds: string[]): SettingsEvent<"operator.signed_out"> => ({
  type: "operator.signed_out",
  workspaceId,
  operatorId,
  sessionIds,
});
