import type { InitBody, InitResponse } from "@frontdesk/contracts";
import { randomBase62 } from "../db/ids.js";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { admitAgent } from "./admit-agent.js";
import { presentAgent, presentBranding } from "./present-agent.js";
import {
  insertCountedConversation,
  listRecentMessages,
  touchConversation,
  upsertVisitor,
} from "./session-repository.js";

export const INIT_MESSAGE_COUNT = 30;
const MAX_USER_AGENT_LENGTH = 512;

/** The `User-Agent` the console shows of the visitor: at most 512 characters, anything the store refuses as U+FFFD. */
export function storableUserAgent(header: string | undefined): string | null {
  if (header === undefined || header.trim() === "") return null;
  return header.slice(0, MAX_USER_AGENT_LENGTH).replace(/[\u0000\uD800-\uDFFF]/gu, "\uFFFD");
}

/** `YYYY-MM-01` of the UTC calendar month: the key of the monthly conversation quota. */
export function quotaMonth(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, "0")}-01`;
}

/**
 * POST /init: admits the visitor (by origin), resumes their latest conversation or starts a new
 * one (counted against the monthly quota), and issues a session token for it.
 */
export async function startSession(
  services: Services,
  input: {
    body: InitBody;
    origin: string | undefined;
    userAgent: string | null;
    /** Origins of this service's own pages (the demo page), admitted for every agent; empty when FRONTDESK_DEMO=false. */
    serviceOrigins?: readonly string[];
  },
): Promise<InitResponse["data"]> {
  const { db, config, sessionTokens, bus } = services;
  const found = await admitAgent(services, { agentId: input.body.agent_id, origin: input.origin, serviceOrigins: input.serviceOrigins ?? [] });
  const { agent } = found;
  const now = services.now();
  const idleCutoff = now.getTime() - config.conversationIdleHours * 3_600_000;
  const anonId = input.body.anon_id ?? `anon_${randomBase62(24)}`;

  // Each step is one atomic statement: a visitor without a conversation is harmless (the next init reuses it).
  const session = await (async () => {
    const { visitor, latest } = await upsertVisitor(db, agent.id, anonId);
    if (latest && !input.body.new_conversation && latest.lastActivityAt.getTime() >= idleCutoff) {
      await touchConversation(db, latest.id, { pageUrl: input.body.page_url, userAgent: input.userAgent });
      return { visitor, conversationId: latest.id, resumed: true };
    }
    const conversationId = await insertCountedConversation(db, {
      workspaceId: agent.workspaceId,
      agentId: agent.id,
      visitorId: visitor.id,
      pageUrl: input.body.page_url,
      userAgent: input.userAgent,
      month: quotaMonth(now),
      quota: found.conversationQuota,
    });
    if (!conversationId) throw new AppError("plan_limit_reached", "This workspace has reached its monthly conversation limit.");
    return { visitor, conversationId, resumed: false };
  })();

  const messages = session.resumed ? await listRecentMessages(db, session.conversationId, INIT_MESSAGE_COUNT) : [];
  const token = await sessionTokens.issue({ agentId: agent.id, visitorId: session.visitor.id, conversationId: session.conversationId });
  if (!session.resumed) {
    bus.publish({
      type: "conversation.started",
      workspaceId: agent.workspaceId,
      agentId: agent.id,
      conversationId: session.conversationId,
      visitorId: session.visitor.id,
      at: now.toISOString(),
    });
  }
  return {
    conversation_id: session.conversationId,
    visitor_id: session.visitor.id,
    anonymous_id: session.visitor.anonId,
    jwt: token.jwt,
    expires_at: token.expiresAt.toISOString(),
    agent: presentAgent(agent),
    branding: presentBranding(agent, config),
    behavior_rules: agent.behaviorRules,
    messages,
    reverb: { app_key: config.realtime.appKey, ...config.realtime.descriptor },
  };
}
