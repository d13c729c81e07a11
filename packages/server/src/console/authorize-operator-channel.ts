import { AppError } from "../http/app-error.js";
import { conversationChannel, operatorsPresenceChannel, workspaceChannel } from "../realtime/bus-channels.js";
import { signSubscription } from "../realtime/channels/channel-signature.js";
import type { Services } from "../services.js";
import { findConversation } from "../widget/conversation-repository.js";
import type { SignedInOperator } from "./authenticate-operator.js";

const CONVERSATION_CHANNEL_PREFIX = conversationChannel("");

export interface ChannelAuthorization {
  auth: string;
  /** Presence channels only: who joins, written by the server (the client cannot choose it). */
  channel_data?: string;
}

/**
 * POST /api/v1/console/broadcasting/auth: signs the operator's subscription to its workspace's
 * channel, its workspace's operator presence (as itself), and the conversation channels of its
 * workspace. Anything else, a conversation of another workspace or an unknown one alike, is 403.
 */
export async function authorizeOperatorChannel(
  services: Services,
  operator: SignedInOperator,
  input: { socketId: string; channelName: string },
): Promise<ChannelAuthorization> {
  const { credentials } = services.realtime;
  const { socketId, channelName } = input;
  if (channelName === workspaceChannel(operator.workspaceId)) return { auth: signSubscription(credentials, socketId, channelName) };
  if (channelName === operatorsPresenceChannel(operator.workspaceId)) {
    const channelData = JSON.stringify({ user_id: operator.id, user_info: { name: operator.name } });
    return { auth: signSubscription(credentials, socketId, channelName, channelData), channel_data: channelData };
  }
  if (channelName.startsWith(CONVERSATION_CHANNEL_PREFIX)) {
    const conversation = await findConversation(services.db, channelName.slice(CONVERSATION_CHANNEL_PREFIX.length));
    if (conversation && conversation.workspaceId === operator.workspaceId) return { auth: signSubscription(credentials, socketId, channelName) };
  }
  throw new AppError("channel_forbidden", "An operator may subscribe to its workspace's channel and presence, and its workspace's conversations only.");
}
