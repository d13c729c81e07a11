import {
  answerSchema,
  couponBodySchema,
  eventBodySchema,
  initBodySchema,
  initResponseSchema,
  leadBodySchema,
  messageBodySchema,
  requestHumanBodySchema,
  sourceSchema,
  typingBodySchema,
} from "@frontdesk/contracts";
import type { z } from "zod";
import { componentSchemas } from "./component-schemas.js";

type Shape = Record<string, z.ZodType>;

/**
 * Describes members of an object schema in the OpenAPI document (and so in generated clients).
 * A description belongs to the member's schema instance, so a member whose schema is shared
 * (`agentIdSchema`, `httpUrlSchema`, `isoTimestampSchema`) cannot be described here: it would
 * describe every other use too. Those with metadata already are refused.
 */
function describeMembers<S extends Shape>(schema: { shape: S }, descriptions: Partial<Record<keyof S & string, string>>): void {
  for (const [member, description] of Object.entries(descriptions)) {
    const field = schema.shape[member];
    if (!field || typeof description !== "string") continue;
    if (componentSchemas.has(field)) throw new Error(`'${member}' has a shared, already described schema`);
    componentSchemas.add(field, { description });
  }
}

describeMembers(initBodySchema, {
  anon_id: "The visitor's id kept by the widget (8–128 of `[A-Za-z0-9_-]`); omitted, one is generated and returned as `anonymous_id`.",
  new_conversation: "Start a new conversation instead of resuming the visitor's latest one.",
});
describeMembers(initResponseSchema.shape.data, {
  anonymous_id: "The `anon_id` sent, or the one generated: keep it to be the same visitor next time.",
  jwt: "The session token (HS256, 60 minutes): `Authorization: Bearer <jwt>` on the session routes.",
  behavior_rules: "The agent's proactive rules (`admin agent update --behavior-rules-file`), validated when set; `[]` when it has none.",
  messages: "The last 30 messages of a resumed conversation, oldest first; `[]` for a new one.",
});
describeMembers(messageBodySchema, {
  message: "The visitor's message (1–4,000 characters, not blank).",
  page_url: "The page the visitor is on, when it changed since init.",
  page_context: "What the page shows (at most 16 KB as JSON); `title`, `product`, `name`, `category` and `heading` help retrieval.",
});
describeMembers(answerSchema, {
  message_id: "The bot's stored message.",
  content: "The answer's text (empty while a human is requested).",
  low_confidence: "True when the knowledge did not ground the answer (nothing relevant was found, or a model said so).",
  awaiting_human: "Present (true) when a human is requested: the bot stayed quiet.",
});
describeMembers(leadBodySchema, {
  email: "Required; stored trimmed, deduplicated case-insensitively per agent.",
  fields: "Free-form members (at most 50 keys, 8 KB as JSON), merged over the stored ones.",
});
describeMembers(eventBodySchema, { event: "The event's name, e.g. `cta.click`.", metadata: "Free-form (at most 8 KB as JSON)." });
describeMembers(requestHumanBodySchema, { reason: "Why; a later non-empty reason replaces the stored one." });
describeMembers(typingBodySchema, { typing: "`false` when the visitor stopped typing; omitted means `true`." });
describeMembers(couponBodySchema, { code: "3 to 32 letters, digits and dashes." });
describeMembers(sourceSchema, {
  status: "`pending` until indexed (or failed); an indexed source re-syncing stays `indexed`.",
  error: "Why the source, or its last re-sync, failed; null otherwise.",
  last_synced_at: "When the source was last indexed; null until then.",
});
