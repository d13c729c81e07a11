import {
  answerSchema,
  attachmentSchema,
  availabilitySchema,
  behaviorRuleSchema,
  brandingSchema,
  citationSchema,
  citationsFrameSchema,
  conversationMessageSchema,
  couponBodySchema,
  couponResponseSchema,
  createSourceBodySchema,
  doneFrameSchema,
  errorBodySchema,
  errorFrameSchema,
  eventBodySchema,
  eventResponseSchema,
  httpUrlSchema,
  initBodySchema,
  initResponseSchema,
  isoTimestampSchema,
  leadBodySchema,
  leadSchema,
  messageBodySchema,
  officeHoursSchema,
  requestHumanBodySchema,
  requestHumanResponseSchema,
  reverbSchema,
  satisfactionBodySchema,
  satisfactionResponseSchema,
  sourceErrorSchema,
  sourceSchema,
  streamFrameSchema,
  tokenFrameSchema,
  typingBodySchema,
  widgetAgentSchema,
} from "@frontdesk/contracts";
import { z } from "zod";

export interface ComponentMeta {
  id?: string;
  description?: string;
  [key: string]: unknown;
}

/**
 * The named schemas of the OpenAPI document (`#/components/schemas/<id>`). A route schema that
 * is (or contains) one of these is written as a `$ref` to it. Request bodies are named
 * `…Request`; everything else is what the API answers with.
 */
export const componentSchemas = z.registry<ComponentMeta>();

const components: [z.ZodType, ComponentMeta & { id: string }][] = [
  [errorBodySchema, {
    id: "Error",
    description:
      "Every error the service answers with. `code` is stable (part of the API); `message` is for people. " +
      "422 `validation_failed` adds `fields`: each invalid member (a dotted path, or `body`) with its messages.",
  }],
  [citationSchema, { id: "Citation", description: "A cited document: its stable integer id, the URL it was read from and, when it has one, its title (additive: older messages have none)." }],
  [behaviorRuleSchema, {
    id: "BehaviorRule",
    description:
      "A proactive rule the widget runs: `trigger` (`page` URL pattern, `time_on_page` seconds, `scroll` percent, `exit_intent`; all but `page` may add a `url` pattern) " +
      "and `action` (`open`, `message` bubble `text`, `cta` with `label`, `url`, optional `text` and, on e-commerce agents, `coupon`). `id` is the `rule_id` of its /events telemetry.",
  }],
  [conversationMessageSchema, { id: "Message", description: "A stored message of a conversation, as init returns it (oldest first)." }],
  [attachmentSchema, { id: "Attachment", description: "A file sent in a conversation (an image or a PDF): where to fetch it, its type read from its content, its size and name." }],
  [widgetAgentSchema, { id: "Agent", description: "What the widget needs of the agent: name, persona, theme colour, starter prompts, default language." }],
  [brandingSchema, { id: "Branding", description: "The branding line the widget shows." }],
  [availabilitySchema, {
    id: "Availability",
    description:
      "The agent's office hours as of init: `open_now`, else `next_open_at` (UTC; the widget shows it in the visitor's own time), " +
      "the away message shown outside them and the usual reply time shown inside them.",
  }],
  [officeHoursSchema, {
    id: "OfficeHours",
    description:
      "When a person may answer: an IANA `time_zone` and, per weekday (`mon` … `sun`), at most four open intervals `{open, close}` (HH:MM, `close` up to `24:00`), " +
      "not overlapping; a day left out or `[]` is closed. Daylight saving time follows the zone.",
  }],
  [reverbSchema, { id: "Reverb", description: "The Pusher-protocol realtime connection descriptor, from FRONTDESK_REALTIME_*: app key, host, port, scheme." }],
  [initResponseSchema.shape.data, { id: "Session", description: "A widget session: the conversation (new or resumed), the session token, and what the widget shows." }],
  [leadSchema, { id: "Lead", description: "A lead of the agent, deduplicated by e-mail (case-insensitive)." }],
  [eventResponseSchema.shape.data, { id: "Event", description: "A recorded widget telemetry event." }],
  [requestHumanResponseSchema.shape.data, { id: "HumanRequest", description: "The conversation's request for a human operator (the first request's time is kept)." }],
  [satisfactionResponseSchema.shape.data, { id: "Satisfaction", description: "The conversation's latest satisfaction rating." }],
  [couponResponseSchema.shape.data, { id: "CouponApplication", description: "The coupon code last applied in the conversation." }],
  [answerSchema, {
    id: "Answer",
    description:
      "The bot's answer. `message_id` is the bot's stored message. While a human is requested the bot stays quiet: " +
      "`content` is empty, `citations` empty and `awaiting_human` true.",
  }],
  [tokenFrameSchema, { id: "TokenFrame", description: "A piece of the answer's text, in order." }],
  [citationsFrameSchema, { id: "CitationsFrame", description: "The documents the answer cites; sent once, after the last token." }],
  [errorFrameSchema, {
    id: "ErrorFrame",
    description: "Generation failed after tokens were sent (`generation_failed`, `generation_timeout`, `internal_error`); `done` follows.",
  }],
  [doneFrameSchema, {
    id: "DoneFrame",
    description:
      "The last frame. Carries `message_id` (the bot's stored message) and `low_confidence`, or only `awaiting_human: true` " +
      "when a human was requested and the bot stayed quiet.",
  }],
  [streamFrameSchema, { id: "StreamFrame", description: "One frame of POST /messages/stream, sent as `data: <this JSON>` and a blank line." }],
  [sourceErrorSchema, { id: "SourceError", description: "Why a source (or its last re-sync) failed: a stable code and a message." }],
  [sourceSchema, {
    id: "Source",
    description:
      "A knowledge source of an agent. `status` is `pending` until indexed or failed. `config` holds `url` (url, sitemap); " +
      "`title`, `source_url`, `content_bytes` (text); and, for a sitemap, `pages_found`, `pages_indexed`, `pages_failed`, " +
      "`truncated`, `skipped_foreign_host`, and the `include_patterns` and `exclude_patterns` it was given.",
  }],
  [initBodySchema, { id: "InitRequest" }],
  [leadBodySchema, { id: "LeadRequest" }],
  [eventBodySchema, { id: "EventRequest" }],
  [requestHumanBodySchema, { id: "RequestHumanRequest" }],
  [typingBodySchema, { id: "TypingRequest" }],
  [satisfactionBodySchema, { id: "SatisfactionRequest" }],
  [couponBodySchema, { id: "CouponRequest" }],
  [messageBodySchema, { id: "MessageRequest" }],
  [createSourceBodySchema, { id: "CreateSourceRequest", description: "One body shape per `kind`: `url`, `sitemap` or `text`. Unknown members are ignored." }],
];

for (const [schema, meta] of components) componentSchemas.add(schema, meta);
componentSchemas.add(isoTimestampSchema, { format: "date-time", description: "ISO 8601, UTC." });
componentSchemas.add(httpUrlSchema, { format: "uri", description: "An absolute http(s) URL." });
