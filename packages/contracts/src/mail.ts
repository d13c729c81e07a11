import { z } from "zod";
import { isoTimestampSchema } from "./common.js";

/** How an operator is e-mailed when away: every alert at once, an hourly digest, or never. */
export const emailAlertChoices = ["every", "digest", "none"] as const;
export type EmailAlertChoice = (typeof emailAlertChoices)[number];

export const operatorMailPreferencesSchema = z.object({
  email_alerts: z
    .enum(emailAlertChoices)
    .describe(
      "`every`: an e-mail when a visitor asks for a person and no operator is online, and when a visitor's message in a conversation you have stays unseen; " +
        "`digest`: the same alerts gathered in one e-mail an hour; `none`: no alert e-mail.",
    ),
});
export type OperatorMailPreferences = z.infer<typeof operatorMailPreferencesSchema>;
export const operatorMailPreferencesResponseSchema = z.object({ data: operatorMailPreferencesSchema });

export const mailKinds = ["operator_alert", "operator_unseen", "operator_digest", "visitor_reply", "transcript", "answer_tests_regressed", "operator_mention"] as const;
export const mailStatuses = ["waiting", "queued", "sending", "retrying", "sent", "failed"] as const;

export const mailAttemptSchema = z.object({
  attempt: z.number().int(),
  outcome: z.enum(["sent", "failed", "refused"]).describe("`refused`: the SMTP server answered with a permanent (5xx) refusal; `failed`: a timeout, a lost connection or a temporary (4xx) answer."),
  smtp_code: z.number().int().nullable().describe("The SMTP server's reply code, when it answered."),
  detail: z.string().nullable().describe("The server's answer or the error (at most 500 characters)."),
  duration_ms: z.number().int(),
  at: isoTimestampSchema,
});

export const mailMessageSchema = z.object({
  id: z.string(),
  kind: z.enum(mailKinds),
  status: z
    .enum(mailStatuses)
    .describe("`waiting`: no SMTP server is configured, it goes out once one is; `queued`, `sending`, `retrying` (after a failed attempt, at `next_attempt_at`); `sent`; `failed` (refused, every attempt failed, or bounced later: a delivery status notification, `last_error` \"bounced: <status> (<diagnostic>)\")."),
  to: z.string().describe("The recipient's address."),
  subject: z.string(),
  conversation_id: z.string().nullable(),
  attempts: z.array(mailAttemptSchema).describe("Each attempt's outcome, oldest first (the delivery log)."),
  last_error: z.string().nullable(),
  next_attempt_at: isoTimestampSchema.nullable(),
  created_at: isoTimestampSchema,
  sent_at: isoTimestampSchema.nullable(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

export const mailOutboxSchema = z.object({
  smtp_configured: z.boolean().describe("Whether FRONTDESK_SMTP_URL is set: without it mails wait (`waiting`) and nothing is lost."),
  notice: z.string().nullable().describe('What to tell an admin, e.g. "E-mail is not set up: 3 messages waiting"; null when all is well.'),
  counts: z.object(Object.fromEntries(mailStatuses.map((status) => [status, z.number().int()])) as Record<(typeof mailStatuses)[number], z.ZodNumber>),
  messages: z.array(mailMessageSchema).describe("The workspace's mails, newest first."),
});
export type MailOutbox = z.infer<typeof mailOutboxSchema>;
export const mailOutboxResponseSchema = z.object({ data: mailOutboxSchema });
export const mailOutboxQuerySchema = z.object({
  status: z.enum(mailStatuses).optional().describe("Only the mails in this status."),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("Mails listed (at most 200)."),
});

/** POST /widget/conversation/transcript. */
export const transcriptBodySchema = z.object({
  email: z
    .string()
    .trim()
    .max(254)
    .pipe(z.email({ message: "must be a valid e-mail address" }))
    .optional()
    .describe("Optional, and only ever the address the visitor left (POST /leads), where the transcript goes; any other is refused (422 `fields.email`)."),
});
export const transcriptResponseSchema = z.object({
  data: z.object({ status: z.enum(["queued", "waiting"]).describe("`waiting`: e-mail is not set up on this service yet; it goes out once it is.") }),
});
