import { createHash } from "node:crypto";
import type { WebhookEventType } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import type { BusEvent } from "../realtime/event-bus.js";
import { findSourceSyncRequestedAt } from "../sources/source-repository.js";
import { findWorkspaceLead } from "../widget/lead-repository.js";

/** A bus event that webhooks deliver: its type, time, data (read when an endpoint wants it) and, where it may be announced twice, a fixed id. */
export interface WebhookCandidate {
  workspaceId: string;
  type: WebhookEventType;
  at: string;
  /** The event's data, or null when what it is about is gone (a lead erased meanwhile). */
  data: (db: Queryable) => Promise<Record<string, unknown> | null>;
  /** The same for every announcement of one occurrence (a settled source may be announced by several workers); else a new id. */
  eventId?: (db: Queryable) => Promise<string | null>;
}

/** An event id that every process derives alike from what names one occurrence. */
const fixedEventId = (...parts: string[]) => `evt_${createHash("sha256").update(parts.join("\u0000")).digest("base64url").slice(0, 22)}`;

/**
 * The one map from the service's bus events (published after each change commits) to webhook
 * events: lead.captured → lead.created, lead.updated, human.requested, a conversation.updated to
 * `closed` → conversation.closed, satisfaction.rated, a settled source.updated → source.indexed or
 * source.failed. Anything else is not a webhook event.
 */
export function webhookEventOf(event: BusEvent, now: () => Date): WebhookCandidate | null {
  switch (event.type) {
    case "lead.captured":
    case "lead.updated":
      return {
        workspaceId: event.workspaceId,
        type: event.type === "lead.captured" ? "lead.created" : "lead.updated",
        at: event.at,
        data: async (db) => {
          const lead = await findWorkspaceLead(db, event.workspaceId, event.leadId);
          return lead ? { lead } : null;
        },
      };
    case "human.requested":
      return {
        workspaceId: event.workspaceId,
        type: "human.requested",
        at: event.requestedAt,
        data: async () => ({ conversation_id: event.conversationId, agent_id: event.agentId, reason: event.reason, requested_at: event.requestedAt }),
      };
    case "conversation.updated": {
      if (event.status !== "closed") return null;
      const at = now().toISOString();
      return {
        workspaceId: event.workspaceId,
        type: "conversation.closed",
        at,
        data: async () => ({ conversation_id: event.conversationId, agent_id: event.agentId, assignee: event.assignee, closed_at: at }),
        // One close is one transition: its seq names it.
        eventId: async () => fixedEventId("conversation.closed", event.conversationId, String(event.seq)),
      };
    }
    case "satisfaction.rated":
      return {
        workspaceId: event.workspaceId,
        type: "satisfaction.rated",
        at: event.at,
        data: async () => ({ conversation_id: event.conversationId, agent_id: event.agentId, rating: event.rating, comment: event.comment, rated_at: event.at }),
      };
    case "source.updated": {
      if (event.deleted || event.syncing || event.status === "pending") return null;
      // A re-sync that failed keeps an indexed source `indexed` with its error: that sync failed.
      const failed = event.status === "failed" || event.error !== null;
      const type = failed ? "source.failed" : "source.indexed";
      return {
        workspaceId: event.workspaceId,
        type,
        at: now().toISOString(),
        data: async () => ({
          source_id: event.sourceId,
          agent_id: event.agentId,
          status: event.status,
          pages: { found: event.progress.found, indexed: event.progress.indexed, failed: event.progress.failed },
          error: event.error,
        }),
        eventId: async (db) => {
          const requestedAt = await findSourceSyncRequestedAt(db, event.workspaceId, event.sourceId);
          return requestedAt === null ? null : fixedEventId(type, event.sourceId, requestedAt);
        },
      };
    }
    default:
      return null;
  }
}
