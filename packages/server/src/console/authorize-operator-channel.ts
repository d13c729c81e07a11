import { AppError } from "../http/app-error.js";
import { conversationChannel, conversationOperatorsChannel, operatorsPresenceChannel, workspaceChannel } from "../realtime/bus-channels.js";
import { signSubscription } from "../realtime/channels/channel-signature.js";
import type { Services } from "../services.js";
import type { SignedInOperator } from "./authenticate-operator.js";
import { isConversationOfWorkspace } from "./conversation-channel-repository.js";

const CONVERSATION_CHANNEL_PREFIX = conversationChannel("");
const CONVERSATION_OPERATORS_PREFIX = conversationOperatorsChannel("");

export interface ChannelAuthorization {
  auth: string;
  /** Presence channels only: who joins, written by the server (the client cannot choose it). */
  channel_data?: string;
}

/**
 * POST /api/v1/console/broadcasting/auth: signs the operator's subscription to its workspace's
 * channel, its workspace's operator presence (as itself), and the conversation channels of its
 * workspace: `private-conversation.{id}` and the collision presence `presence-conversation-operators.{id}`
 * (as itself, with its role). Anything else, a conversation of another workspace or an unknown one alike, is 403.
 */
export async function authorizeOperatorChannel(
  services: Services,
  operator: SignedInOperator,
  input: { socketId: string; channelName: string },
): Promise<ChannelAuthorization> {
  const { credentials } = services.realtime;
  const { socketId, channelName } = input;
  const asPresence = (userInfo: Record<string, string>): ChannelAuthorization => {
    const channelData = JSON.stringify({ user_id: operator.id, user_info: userInfo });
    return { auth: signSubscription(credentials, socketId, channelName, channelData), channel_data: channelData };
  };
  const conversationOfTheWorkspace = (prefix: string) =>
    channelName.startsWith(prefix) && isConversationOfWorkspace(services.db, operator.workspaceId, channelName.slice(prefix.length));

  if (channelName === workspaceChannel(operator.workspaceId)) return { auth: signSubscription(credentials, socketId, channelName) };
  if (channelName === operatorsPresenceChannel(operator.workspaceId)) return asPresence({ name: operator.name });
  if (await conversationOfTheWorkspace(CONVERSATION_CHANNEL_PREFIX)) return { auth: signSubscription(credentials, socketId, channelName) };
  if (await conversationOfTheWorkspace(CONVERSATION_OPERATORS_PREFIX)) return asPresence({ name: operator.name, role: operator.role });
  throw new AppError("channel_forbidden", "An operator may subscribe to its workspace's channel and presence, and its workspace's conversations only.");
}
