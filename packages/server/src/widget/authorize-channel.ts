import { AppError } from "../http/app-error.js";
import { conversationChannel, grantPrincipals } from "../realtime/bus-channels.js";
import { signSubscription } from "../realtime/channels/channel-signature.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { findSessionConversation } from "../conversations/visitor-sessions.js";

/**
 * POST /broadcasting/auth: signs the visitor's subscription to its own conversation's channel,
 * and nothing else (workspace and operator channels need an operator). It is granted to the
 * conversation, so it ends when the conversation is deleted (the visitor erased, or the retention
 * purge): the grant is recorded first and the conversation read again after, from the store (the
 * session cache may be two seconds behind another process's erasure).
 */
export async function authorizeChannel(services: Services, session: WidgetSession, input: { socketId: string; channelName: string }): Promise<{ auth: string }> {
  const conversationId = session.conversation.id;
  if (input.channelName !== conversationChannel(conversationId)) {
    throw new AppError("channel_forbidden", "A session token authorises only its own conversation's channel.");
  }
  await services.realtime.grant({ socketId: input.socketId, channel: input.channelName, principals: [grantPrincipals.conversation(conversationId)] });
  if (!(await findSessionConversation(services.db, conversationId))) throw new AppError("invalid_token", "The session token is not valid.");
  return { auth: signSubscription(services.realtime.credentials, input.socketId, input.channelName) };
}
