import type { ErrorCode } from "@frontdesk/contracts";

/** The HTTP status of every error code: one map for the whole API. */
export const statusOfCode: Record<ErrorCode, number> = {
  validation_failed: 422,
  model_address_refused: 422,
  bad_request: 400,
  invalid_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  file_too_large: 413,
  uri_too_long: 414,
  header_too_large: 431,
  request_timeout: 408,
  expectation_failed: 417,
  not_found: 404,
  method_not_allowed: 405,
  agent_not_found: 404,
  source_not_found: 404,
  document_not_found: 404,
  origin_forbidden: 403,
  identity_invalid: 401,
  identity_required: 401,
  plan_limit_reached: 429,
  rate_limited: 429,
  missing_token: 401,
  invalid_token: 401,
  token_expired: 401,
  missing_ability: 403,
  invalid_signature: 401,
  channel_forbidden: 403,
  coupon_not_available: 403,
  conversation_not_found: 404,
  attachment_not_found: 404,
  message_not_found: 404,
  operator_not_found: 404,
  visitor_not_found: 404,
  token_not_found: 404,
  webhook_not_found: 404,
  push_subscription_not_found: 404,
  label_not_found: 404,
  last_admin: 409,
  conversation_taken: 409,
  not_assignee: 409,
  conversation_closed: 409,
  idempotency_key_reused: 422,
  idempotency_request_in_progress: 409,
  invalid_transition: 409,
  unauthenticated: 401,
  invalid_credentials: 401,
  invalid_code: 401,
  sign_in_expired: 401,
  two_factor_required: 409,
  sso_not_configured: 404,
  forbidden: 403,
  csrf_origin_mismatch: 403,
  password_token_invalid: 400,
  email_taken: 409,
  label_name_taken: 409,
  setup_token_invalid: 400,
  setup_already_done: 409,
  service_unavailable: 503,
  internal_error: 500,
};

/** The one error class of the service. Its code and message are what the client sees. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
    this.status = statusOfCode[code];
  }
}
