import { isKnownTimeZone, type InitBody, type InitResponse } from "@frontdesk/contracts";
import { randomBase62 } from "../db/ids.js";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { withAttachments } from "../attachments/attachments.js";
import { admitAgent } from "./admit-agent.js";
import { presentAgent, presentAvailability, presentBranding } from "./present-agent.js";
import { listRecentMessages } from "../conversations/messages.js";
import { resumeSession } from "./resume-session.js";
import { identitySecretBoxOf } from "../tenants/identity-secret-box.js";
import { verifyVisitorIdentity } from "./verify-visitor-identity.js";

export const INIT_MESSAGE_COUNT = 30;
const MAX_USER_AGENT_LENGTH = 512;

/** The `User-Agent` the console shows of the visitor: at most 512 characters, anything the store refuses as U+FFFD. */
export function storableUserAgent(header: string | undefined): string | null {
  if (header === undefined || header.trim() === "") return null;
  return header.slice(0, MAX_USER_AGENT_LENGTH).replace(/[\u0000\uD800-\uDFFF]/gu, "\uFFFD");
}

/** The zones init found known: checking one builds an Intl.DateTimeFormat, so each is checked once (an unknown one is not kept). */
const knownTimeZones = new Set<string>();

/** The browser's time zone the widget reports, when it is a known IANA zone (else null: the profile shows no local time). */
export function storableTimeZone(zone: string | undefined): string | null {
  if (zone === undefined) return null;
  if (knownTimeZones.has(zone)) return zone;
  if (!isKnownTimeZone(zone)) return null;
  if (knownTimeZones.size < 1000) knownTimeZones.add(zone);
  return zone;
}

/** The first language of an `Accept-Language` header (`fr-CH, fr;q=0.9` → `fr-CH`), when it is a language tag. */
export function firstLanguageOf(header: string | undefined): string | null {
  const first = header?.split(",", 1)[0]?.split(";", 1)[0]?.trim() ?? "";
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/.test(first) ? first : null;
}

/** `YYYY-MM-01` of the UTC calendar month: the key of the monthly conversation quota. */
export function quotaMonth(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, "0")}-01`;
}

/**
 * POST /init: admits the visitor (by origin), resumes their latest conversation or starts a new
 * one (counted against the monthly quota), and issues a session token for it. A verified identity
 * (verify-visitor-identity.ts) makes the visitor the site's user, the same on every browser. With `resume_token`
 * (an e-mailed link) it reopens that link's conversation instead (resume-session.ts).
 */
export async function startSession(
  services: Services,
  input: {
    body: InitBody;
    origin: string | undefined;
    userAgent: string | null;
    /** The request's Accept-Language header (its first language is kept). */
    acceptLanguage?: string | undefined;
    /** Origins of this service's own pages (the demo page), admitted for every agent; empty when FRONTDESK_DEMO=false. */
    serviceOrigins?: readonly string[];
  },
): Promise<InitResponse["data"]> {
  const { db, config, sessionTokens } = services;
  const found = await admitAgent(services, { agentId: input.body.agent_id, origin: input.origin, serviceOrigins: input.serviceOrigins ?? [] });
  const { agent } = found;
  // Before anything is resumed or stored: a forged identity, or none where one is required, gets nothing.
  const identity = verifyVisitorIdentity(agent, input.body, await identitySecretBoxOf(config));
  const resumed = input.body.resume_token === undefined ? null : await resumeSession(services, agent, input.body.resume_token, INIT_MESSAGE_COUNT);
  if (resumed) return resumed;
  const now = services.now();
  const anonId = input.body.anon_id ?? `anon_${randomBase62(24)}`;

  // One statement for the visitor, the resumed or new conversation and the quota, shared with the
  // agent's concurrent inits (group commit, session-start-batcher.ts).
  const session = await services.sessionStarts.start(
    { agentId: agent.id, workspaceId: agent.workspaceId, month: quotaMonth(now), quota: found.conversationQuota },
    {
      anonId,
      pageUrl: input.body.page_url,
      userAgent: input.userAgent,
      timeZone: storableTimeZone(input.body.time_zone),
      language: firstLanguageOf(input.acceptLanguage),
      newConversation: input.body.new_conversation === true,
      identity,
      idleCutoff: new Date(now.getTime() - config.conversationIdleHours * 3_600_000),
    },
  );
  if (session.conversationId === null) throw new AppError("plan_limit_reached", "This workspace has reached its monthly conversation limit.");

  const messages = session.resumed ? await withAttachments(services, session.conversationId, await listRecentMessages(db, session.conversationId, INIT_MESSAGE_COUNT), "visitor") : [];
  const token = await sessionTokens.issue({ agentId: agent.id, visitorId: session.visitor.id, conversationId: session.conversationId });
  if (!session.resumed) {
    // The batch's statement is committed by now (its transaction is shared by the agent's inits):
    // raised on the store, the event's subscribers run at once.
    await services.events.raise(db, {
      type: "conversation.started",
      conversation: { workspaceId: agent.workspaceId, agentId: agent.id, conversationId: session.conversationId, visitorId: session.visitor.id },
      startedAt: now.toISOString(),
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
    availability: presentAvailability(agent, now),
  };
}
