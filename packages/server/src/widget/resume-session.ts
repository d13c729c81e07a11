import type { InitResponse } from "@frontdesk/contracts";
import { raiseVisitorSeenSeq } from "../conversations/visitor-seen.js";
import type { Services } from "../services.js";
import { withAttachments } from "../attachments/attachments.js";
import type { Agent } from "../tenants/agent.js";
import { listRecentMessages } from "../conversations/messages.js";
import { findResumableConversation } from "../conversations/visitor-sessions.js";
import { presentAgent, presentAvailability, presentBranding } from "./present-agent.js";

/**
 * POST /init with `resume_token`: the link of an e-mailed reply (mail/mail-unseen-message.ts)
 * reopens the very conversation it was about, on any browser, as its visitor: the token is opened
 * (sealed by this service, not expired, for this agent), the conversation and its visitor must
 * still exist (an erased visitor's link opens nothing), and a session token is issued for it with
 * the latest messages, which the visitor now sees. No new conversation, so no quota is counted.
 * Null when the link opens nothing: init then goes on as without it (the visitor's own conversation),
 * which tells a prober nothing and spares a visitor with an old link an error.
 */
export async function resumeSession(services: Services, agent: Agent, resumeToken: string, messageCount: number): Promise<InitResponse["data"] | null> {
  const claims = services.resumeTokens.open(resumeToken);
  const found = claims && claims.agentId === agent.id ? await findResumableConversation(services.db, claims) : null;
  if (!found) return null;
  const messages = await withAttachments(services, found.conversationId, await listRecentMessages(services.db, found.conversationId, messageCount), "visitor");
  const lastSeq = messages.reduce((highest, message) => Math.max(highest, message.seq ?? 0), 0);
  if (lastSeq > 0) await raiseVisitorSeenSeq(services.db, found.conversationId, lastSeq);
  const token = await services.sessionTokens.issue({ agentId: agent.id, visitorId: found.visitorId, conversationId: found.conversationId });
  const { config } = services;
  return {
    conversation_id: found.conversationId,
    visitor_id: found.visitorId,
    anonymous_id: found.anonId,
    jwt: token.jwt,
    expires_at: token.expiresAt.toISOString(),
    agent: presentAgent(agent),
    branding: presentBranding(agent, config),
    behavior_rules: agent.behaviorRules,
    messages,
    reverb: { app_key: config.realtime.appKey, ...config.realtime.descriptor },
    availability: presentAvailability(agent, services.now()),
  };
}
