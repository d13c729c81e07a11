import { z } from "zod";

/** Every stable error code the API can answer with. Codes are part of the public contract. */
export const errorCodes = [
  "validation_failed",
  "model_address_refused",
  "bad_request",
  "invalid_json",
  "unsupported_media_type",
  "payload_too_large",
  "file_too_large",
  "uri_too_long",
  "header_too_large",
  "request_timeout",
  "expectation_failed",
  "not_found",
  "method_not_allowed",
  "agent_not_found",
  "source_not_found",
  "document_not_found",
  "origin_forbidden",
  "identity_invalid",
  "identity_required",
  "plan_limit_reached",
  "rate_limited",
  "missing_token",
  "invalid_token",
  "token_expired",
  "missing_ability",
  "invalid_signature",
  "channel_forbidden",
  "coupon_not_available",
  "conversation_not_found",
  "message_not_found",
  "operator_not_found",
  "visitor_not_found",
  "token_not_found",
  "webhook_not_found",
  "push_subscription_not_found",
  "last_admin",
  "conversation_taken",
  "not_assignee",
  "conversation_closed",
  "idempotency_key_reused",
  "idempotency_request_in_progress",
  "invalid_transition",
  "unauthenticated",
  "invalid_credentials",
  "forbidden",
  "csrf_origin_mismatch",
  "password_token_invalid",
  "email_taken",
  "setup_token_invalid",
  "setup_already_done",
  "service_unavailable",
  "internal_error",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
  }),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
