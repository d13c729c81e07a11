import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { authenticateSession } from "./authenticate-session.js";

/**
 * POST /typing: needs no credential. With a valid session token, operators watching the
 * conversation see the visitor typing; without one (or with a stale one) nothing is published.
 */
export async function signalTyping(services: Services, authorization: string | undefined, typing: boolean): Promise<boolean> {
  if (!authorization) return false;
  try {
    const session = await authenticateSession(services, authorization);
    services.bus.publish({
      type: "visitor.typing",
      workspaceId: session.conversation.workspaceId,
      agentId: session.conversation.agentId,
      conversationId: session.conversation.id,
      typing,
      at: services.now().toISOString(),
    });
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}
