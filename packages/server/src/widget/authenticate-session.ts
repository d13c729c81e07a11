import type { SessionClaims } from "@frontdesk/contracts";
import { bearerToken } from "../auth/session-token.js";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findSessionConversation, type SessionConversation } from "../conversations/visitor-sessions.js";

export interface WidgetSession {
  claims: SessionClaims;
  conversation: SessionConversation;
  /** Identifies this token for per-token rate limits (its signature). */
  tokenKey: string;
}

/**
 * Verifies the bearer session token (HS256, signature, exp, iss, claims) and that its
 * conversation exists and belongs to its agent and visitor.
 */
export async function authenticateSession(services: Services, authorization: string | undefined): Promise<WidgetSession> {
  const token = bearerToken(authorization);
  if (!token) throw new AppError("missing_token", "Send the session token from init as 'Authorization: Bearer <token>'.");
  const claims = await services.sessionTokens.verify(token);
  let conversation = services.sessionCache.get(claims.conversation_id) ?? null;
  if (!conversation) {
    conversation = await findSessionConversation(services.db, claims.conversation_id);
    if (conversation) services.sessionCache.set(conversation);
  }
  if (!conversation || conversation.agentId !== claims.agent_id || conversation.visitorId !== claims.visitor_id) {
    throw new AppError("invalid_token", "The session token is not valid.");
  }
  if (!conversation.agentPublished) throw new AppError("agent_not_found", "No published agent has this id.");
  return { claims, conversation, tokenKey: token.slice(token.lastIndexOf(".") + 1) };
}
