import { AppError } from "../http/app-error.js";
import { conversationChannel } from "../realtime/bus-channels.js";
import { signSubscription } from "../realtime/channels/channel-signature.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";

/**
 * POST /broadcasting/auth: signs the visitor's subscription to its own conversation's channel,
 * and nothing else (workspace and operator channels need an operator).
 */
export function authorizeChannel(services: Services, session: WidgetSession, input: { socketId: string; channelName: string }): { auth: string } {
  if (input.channelName !== conversationChannel(session.conversation.id)) {
    throw new AppError("channel_forbidden", "A session token authorises only its own conversation's channel.");
  }
  return { auth: signSubscription(services.realtime.credentials, input.socketId, input.channelName) };
}
