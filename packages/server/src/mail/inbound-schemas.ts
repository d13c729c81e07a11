import { errorResponse, errors, jsonResponse } from "../openapi/route-responses.js";
import { z } from "zod";

const tags = ["inbound-mail"];
const field = (max: number) => z.string().max(max).optional();

/** A Mailgun `forward()` post, fully parsed or raw MIME (`body-mime`); form-encoded or multipart. Other fields are kept and ignored. */
export const mailgunPostSchema = z.looseObject({
  timestamp: z.string().regex(/^\d{1,12}$/),
  token: z.string().min(1).max(200),
  signature: z.string().regex(/^[0-9a-fA-F]{64}$/),
  "body-mime": z.string().optional(),
  from: field(2000),
  sender: field(2000),
  recipient: field(10_000),
  subject: field(10_000),
  "message-headers": z.string().optional(),
  "body-plain": z.string().optional(),
  "body-html": z.string().optional(),
  "attachment-count": field(10),
  "message-id": field(1000),
  "in-reply-to": field(10_000),
  references: field(50_000),
});
export type MailgunPost = z.infer<typeof mailgunPostSchema>;

const postmarkAddress = z.looseObject({ Email: z.string().max(320), MailboxHash: z.string().max(200).optional() });

/** A Postmark inbound webhook's JSON. Other members are kept and ignored. */
export const postmarkPostSchema = z.looseObject({
  MessageID: z.string().min(1).max(200),
  FromFull: postmarkAddress,
  ToFull: z.array(postmarkAddress).max(500).optional(),
  CcFull: z.array(postmarkAddress).max(500).optional(),
  OriginalRecipient: z.string().max(320).optional(),
  Headers: z.array(z.looseObject({ Name: z.string().max(200), Value: z.string().max(50_000) })).max(500).optional(),
  TextBody: z.string().optional(),
  HtmlBody: z.string().optional(),
  Attachments: z.array(z.unknown()).max(500).optional(),
});
export type PostmarkPost = z.infer<typeof postmarkPostSchema>;

const outcomeSchema = z.object({
  data: z.object({
    outcome: z
      .enum(["stored", "duplicate", "bounce", "unmatched", "wrong_sender", "automatic", "empty", "malformed", "conversation_gone"])
      .describe("`stored`: in its conversation; `duplicate`: this Message-ID was stored before; `bounce`: a delivery status notification that marked our mail `failed`; anything else: dropped, logged, nothing written."),
  }),
});

const postErrors = (auth: string) => ({
  200: jsonResponse("Taken: stored in its conversation, or dropped for a reason that another post would not change (so the provider does not retry).", outcomeSchema),
  400: errorResponse("`invalid_json` or `bad_request`: the body is not valid JSON, or not a readable form."),
  401: errorResponse(auth),
  404: errorResponse("`not_found`: this provider is not configured on this service."),
  413: errorResponse("`payload_too_large`: the post (or the raw mail in it) is over FRONTDESK_INBOUND_MAIL_MAX_BYTES; it is logged and dropped."),
  415: errors.unsupportedMediaType,
  422: errorResponse("`validation_failed`: the post is not the provider's inbound format; `fields` names each bad member."),
  429: errorResponse("`rate_limited`: over 600 posts a minute from this IP (`FRONTDESK_RATE_LIMIT_INBOUND_MAIL_PER_MINUTE`)."),
  500: errors.internal,
});

export const mailgunRouteSchema = {
  tags,
  operationId: "receiveMailgunInboundMail",
  summary: "Receive a reply by e-mail from Mailgun",
  description:
    "The URL of a Mailgun route's `forward()` action: a visitor's reply to a mail about their conversation, fully parsed " +
    "(`application/x-www-form-urlencoded`, or `multipart/form-data` with attachments, which are ignored) or raw MIME (`body-mime`). " +
    "Signed with the domain's HTTP webhook signing key (FRONTDESK_INBOUND_MAILGUN_SIGNING_KEY): `signature` is the hex " +
    "HMAC-SHA256 of `timestamp` then `token`, and `timestamp` must be within five minutes.",
  body: mailgunPostSchema,
  response: postErrors("`invalid_signature`: `signature` is missing, wrong, or its `timestamp` over five minutes away."),
};

export const postmarkRouteSchema = {
  tags,
  operationId: "receivePostmarkInboundMail",
  summary: "Receive a reply by e-mail from Postmark",
  description:
    "The inbound webhook URL of a Postmark server's inbound stream, given with basic-auth credentials in it " +
    "(`https://user:password@host/api/v1/inbound-mail/postmark`, FRONTDESK_INBOUND_POSTMARK_CREDENTIALS): a visitor's reply to a " +
    "mail about their conversation, as Postmark's JSON. Attachments are ignored.",
  body: postmarkPostSchema,
  response: postErrors("`invalid_signature`: the `Authorization: Basic` credentials are missing or wrong."),
};
