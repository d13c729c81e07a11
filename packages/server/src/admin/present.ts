import type { ConversationMessage } from "@frontdesk/contracts";
import type { InboxNotification } from "../inbox/notifications.js";
import type { Agent } from "../tenants/agent.js";
import type { ApiToken } from "../tenants/api-tokens.js";
import type { Operator } from "../tenants/operators.js";
import type { Workspace } from "../tenants/workspaces.js";
import type { ConversationRecord } from "../conversations/conversations.js";

/** The admin CLI speaks the API's snake_case. */

export const presentWorkspace = (workspace: Workspace) => ({
  id: workspace.id,
  name: workspace.name,
  conversation_quota: workspace.conversationQuota,
  created_at: workspace.createdAt,
});

export const presentAdminAgent = (agent: Agent) => ({
  id: agent.id,
  workspace_id: agent.workspaceId,
  name: agent.name,
  published: agent.published,
  vertical: agent.vertical,
  allowed_origins: agent.allowedOrigins,
  persona: { name: agent.personaName, tone: agent.personaTone },
  theme: agent.theme,
  starter_prompts: agent.starterPrompts,
  language_default: agent.languageDefault,
  behavior_rules: agent.behaviorRules,
  office_hours: agent.officeHours,
  away_message: agent.awayMessage,
  reply_time: agent.replyTime,
  answer_model: agent.answerModel,
  instructions: agent.instructions,
  identity: { mode: agent.identityMode, secret_created_at: agent.identitySecretCreatedAt },
  routing: agent.routing,
  created_at: agent.createdAt,
  updated_at: agent.updatedAt,
});

export const presentOperator = (operator: Operator) => ({
  id: operator.id,
  workspace_id: operator.workspaceId,
  email: operator.email,
  name: operator.name,
  role: operator.role,
  password_set: operator.hasPassword,
  away: operator.away,
  created_at: operator.createdAt,
});

/** Never the plaintext nor its hash: the store keeps only the hash, and no list reads it. */
export const presentToken = (token: ApiToken) => ({
  id: token.id,
  workspace_id: token.workspaceId,
  name: token.name,
  prefix: token.prefix,
  abilities: token.abilities,
  last_used_at: token.lastUsedAt,
  revoked_at: token.revokedAt,
  created_at: token.createdAt,
});

export const presentConversation = (conversation: ConversationRecord, messages: ConversationMessage[]) => ({
  id: conversation.id,
  workspace_id: conversation.workspaceId,
  agent_id: conversation.agentId,
  visitor_id: conversation.visitorId,
  page_url: conversation.pageUrl,
  human_requested_at: conversation.humanRequestedAt,
  human_request_reason: conversation.humanRequestReason,
  status: conversation.status,
  assignee_operator_id: conversation.assigneeOperatorId,
  bot_paused: conversation.botPaused,
  satisfaction: conversation.satisfaction ? { rating: conversation.satisfaction.rating, comment: conversation.satisfaction.comment } : null,
  coupon_code: conversation.couponCode,
  coupon_applied_at: conversation.couponAppliedAt,
  created_at: conversation.createdAt,
  last_activity_at: conversation.lastActivityAt,
  messages,
});

export const presentNotification = (notification: InboxNotification) => ({
  id: notification.id,
  operator_id: notification.operatorId,
  kind: notification.kind,
  conversation_id: notification.conversationId,
  payload: notification.payload,
  read_at: notification.readAt,
  created_at: notification.createdAt,
});
