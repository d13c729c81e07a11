import { AppError } from "../http/app-error.js";
import { conversationChannel, conversationOperatorsChannel, grantPrincipals, operatorsPresenceChannel, workspaceChannel } from "../realtime/bus-channels.js";
import { signSubscription } from "../realtime/channels/channel-signature.js";
import type { Services } from "../services.js";
import type { SignedInOperator } from "./authenticate-operator.js";
import { isConversationOfWorkspace } from "../conversations/conversations.js";
import { liveOperatorSessionRole } from "../tenants/operator-sessions.js";

const CONVERSATION_CHANNEL_PREFIX = conversationChannel("");
const CONVERSATION_OPERATORS_PREFIX = conversationOperatorsChannel("");

export interface ChannelAuthorization {
  auth: string;
  /** Presence channels only: who joins, written by the server (the client cannot choose it). */
  channel_data?: string;
}

/** The operator, and the console session the request was authenticated by. */
export interface OperatorSignedInBySession {
  operator: SignedInOperator;
  sessionId: string;
}

/**
 * POST /api/v1/console/broadcasting/auth: signs the operator's subscription to its workspace's
 * channel, its workspace's operator presence (as itself), and the conversation channels of its
 * workspace: `private-conversation.{id}` and the collision presence `presence-conversation-operators.{id}`
 * (as itself, with its role). Anything else, a conversation of another workspace or an unknown one alike, is 403.
 *
 * The subscription is granted to the operator and its session (and the conversation; and the role
 * its presence names), so that it ends when any of them does (bus-channels.ts revocationOf). The
 * grant is recorded first and the session read again after: an ending that committed before that
 * read refuses the signature, one after it revokes the grant.
 */
export async function authorizeOperatorChannel(
  services: Services,
  signedIn: OperatorSignedInBySession,
  input: { socketId: string; channelName: string },
): Promise<ChannelAuthorization> {
  const grant = await grantFor(services, signedIn, input);
  if (!grant) throw new AppError("channel_forbidden", "An operator may subscribe to its workspace's channel and presence, and its workspace's conversations only.");
  const { authorization, principals, userInfoRole } = grant;
  await services.realtime.grant({ socketId: input.socketId, channel: input.channelName, channelData: authorization.channel_data, principals });
  const role = await liveOperatorSessionRole(services.db, signedIn.sessionId, services.now());
  if (role === null) throw new AppError("unauthenticated", "The session has ended (signed out, expired, or the password changed); sign in again.");
  if (userInfoRole !== null && role !== userInfoRole) throw new AppError("channel_forbidden", "The operator's role changed while this was being signed: ask again.");
  return authorization;
}

/** The signature of a channel the operator may hold, with whom it is granted to (and the role its `user_info` names); null for any other channel. */
async function grantFor(
  services: Services,
  { operator, sessionId }: OperatorSignedInBySession,
  { socketId, channelName }: { socketId: string; channelName: string },
): Promise<{ authorization: ChannelAuthorization; principals: string[]; userInfoRole: SignedInOperator["role"] | null } | null> {
  const ofOperator = [grantPrincipals.operator(operator.id), grantPrincipals.operatorSession(sessionId)];
  const signed = (principals: string[], userInfo?: { name: string; role?: SignedInOperator["role"] }) => {
    const channelData = userInfo ? JSON.stringify({ user_id: operator.id, user_info: userInfo }) : undefined;
    const authorization: ChannelAuthorization = { auth: signSubscription(services.realtime.credentials, socketId, channelName, channelData) };
    if (channelData !== undefined) authorization.channel_data = channelData;
    return { authorization, principals, userInfoRole: userInfo?.role ?? null };
  };
  /** The conversation the channel names, when the name has the prefix and the conversation is of the operator's workspace. */
  const conversationOfTheWorkspace = async (prefix: string) => {
    const conversationId = channelName.slice(prefix.length);
    return channelName.startsWith(prefix) && (await isConversationOfWorkspace(services.db, operator.workspaceId, conversationId)) ? conversationId : null;
  };

  if (channelName === workspaceChannel(operator.workspaceId)) return signed(ofOperator);
  if (channelName === operatorsPresenceChannel(operator.workspaceId)) return signed(ofOperator, { name: operator.name });
  const conversationId = await conversationOfTheWorkspace(CONVERSATION_CHANNEL_PREFIX);
  if (conversationId !== null) return signed([...ofOperator, grantPrincipals.conversation(conversationId)]);
  const openedId = await conversationOfTheWorkspace(CONVERSATION_OPERATORS_PREFIX);
  if (openedId === null) return null;
  const principals = [...ofOperator, grantPrincipals.conversation(openedId), grantPrincipals.operatorAsRole(operator.id, operator.role)];
  return signed(principals, { name: operator.name, role: operator.role });
}
