import {
  behaviorRulesBodySchema,
  behaviorRulesResponseSchema,
  couponBodySchema,
  couponResponseSchema,
  eventBodySchema,
  eventResponseSchema,
  initBodySchema,
  initResponseSchema,
  leadBodySchema,
  leadResponseSchema,
  requestHumanBodySchema,
  requestHumanResponseSchema,
  satisfactionBodySchema,
  satisfactionResponseSchema,
  typingBodySchema,
} from "@frontdesk/contracts";
import {
  bodyErrors,
  errorResponse,
  errors,
  jsonResponse,
  noContentResponse,
  sessionErrors,
  sessionSecurity,
} from "../openapi/route-responses.js";

const tags = ["widget"];

/** The route schemas of the widget API: validation, serialisation and the OpenAPI document in one place. */
export const initRouteSchema = {
  tags,
  operationId: "initSession",
  summary: "Start or resume a widget session",
  description:
    "Called by the widget when it loads. Checks the page's `Origin` against the agent's allowed origins, then resumes " +
    "the visitor's latest conversation (by `anon_id`, unless `new_conversation` or idle past FRONTDESK_CONVERSATION_IDLE_HOURS) " +
    "or starts one (counted against the workspace's monthly quota). Returns a session token (60 minutes) for the other routes. " +
    "With `resume_token` (the `frontdesk_resume` fragment of the link in an e-mailed operator's reply) it resumes that link's " +
    "conversation as its visitor instead, on any browser, and its messages count as seen; a token that is expired (7 days), altered, " +
    "for another agent or whose conversation is gone (erased) is ignored. Limited per IP and agent. " +
    "With `user_id` and `user_hash` (lowercase hex HMAC-SHA256 of `user_id` under the agent's identity secret), the visitor is the site's " +
    "verified user: their latest conversation is resumed from any browser or device, and `email` and `name` are kept with it. The agent's " +
    "identity mode decides: `off` ignores these fields, `optional` admits anonymous visitors but refuses a claimed id that does not verify, " +
    "`required` refuses any init without a verified id.",
  security: [],
  body: initBodySchema,
  response: {
    200: jsonResponse("The session: conversation, visitor, token, agent, branding and the conversation's last 30 messages.", initResponseSchema),
    ...bodyErrors,
    401: errorResponse(
      "`identity_invalid`: `user_hash` is not the HMAC of `user_id` under the agent's current identity secret (or one of the two is missing); " +
        "`identity_required`: the agent's identity mode is `required` and no `user_id` was given.",
    ),
    403: errorResponse("`origin_forbidden`: the request's `Origin` (missing or `null` included) is not one of the agent's allowed origins."),
    404: errorResponse("`agent_not_found`: no published agent has this id (unknown and unpublished agents answer alike)."),
    429: errorResponse("`plan_limit_reached`: the workspace used its monthly conversation quota; or `rate_limited`: too many inits (see `Retry-After`)."),
  },
};

export const rulesRouteSchema = {
  tags,
  operationId: "readBehaviorRules",
  summary: "Read the agent's proactive rules for a page",
  description:
    "Called by the widget on each page before any session exists: the agent's `behavior_rules` (as init returns them), after the same " +
    "`Origin` check as init. Starts no conversation and stores nothing. Limited per IP and agent, with a budget of its own (`FRONTDESK_RATE_LIMIT_RULES_PER_MINUTE`): it never spends init's.",
  security: [],
  body: behaviorRulesBodySchema,
  response: {
    200: jsonResponse("The agent's proactive rules.", behaviorRulesResponseSchema),
    ...bodyErrors,
    403: errorResponse("`origin_forbidden`: the request's `Origin` is not one of the agent's allowed origins."),
    404: errorResponse("`agent_not_found`: no published agent has this id."),
    429: errorResponse("`rate_limited`: too many requests (see `Retry-After`)."),
  },
};

export const leadsRouteSchema = {
  tags,
  operationId: "captureLead",
  summary: "Capture a lead",
  description:
    "Stores the visitor's contact details for the agent. A repeated e-mail (case-insensitive) updates the lead: given `name` " +
    "and `phone` replace the stored ones, `fields` are merged (new keys win), and the lead points at this conversation.",
  security: sessionSecurity,
  body: leadBodySchema,
  response: {
    200: jsonResponse("The existing lead, updated.", leadResponseSchema),
    201: jsonResponse("A new lead.", leadResponseSchema),
    ...sessionErrors,
  },
};

export const eventsRouteSchema = {
  tags,
  operationId: "recordEvent",
  summary: "Record a widget telemetry event",
  description: "Stores a named widget event with an optional `rule_id` and `metadata` (telemetry: it does not keep the conversation alive). Shares the session token's budget with the message routes.",
  security: sessionSecurity,
  body: eventBodySchema,
  response: {
    202: jsonResponse("The event was recorded.", eventResponseSchema),
    ...sessionErrors,
  },
};

export const requestHumanRouteSchema = {
  tags,
  operationId: "requestHuman",
  summary: "Ask for a human operator",
  description:
    "Marks the conversation as waiting for a human: the bot stops answering it, and on the first request every operator " +
    "of the workspace gets an inbox notification. A later non-empty `reason` replaces the stored one.",
  security: sessionSecurity,
  body: requestHumanBodySchema,
  response: {
    200: jsonResponse("The conversation's human request (the first request's time).", requestHumanResponseSchema),
    ...sessionErrors,
  },
};

export const typingRouteSchema = {
  tags,
  operationId: "signalTyping",
  summary: "Signal that the visitor is typing",
  description:
    "Fire-and-forget. With a valid session token, publishes that the visitor is typing (or stopped, with `{typing: false}`) " +
    "for the conversation's operators; without one, or with an invalid one, it does nothing and still answers 204. " +
    "An empty body means `{typing: true}`. Limited per IP.",
  security: [{}, ...sessionSecurity],
  body: typingBodySchema,
  response: {
    204: noContentResponse("Received."),
    400: errors.invalidJson,
    413: errors.payloadTooLarge,
    415: errors.unsupportedMediaType,
    422: errors.validationFailed,
    429: errors.rateLimited,
    500: errors.internal,
  },
};

export const satisfactionRouteSchema = {
  tags,
  operationId: "rateSatisfaction",
  summary: "Rate the conversation",
  description: "Keeps the latest rating (`good` or `bad`) and comment of the conversation. Limited per IP.",
  security: sessionSecurity,
  body: satisfactionBodySchema,
  response: {
    200: jsonResponse("The stored rating.", satisfactionResponseSchema),
    ...sessionErrors,
  },
};

export const couponRouteSchema = {
  tags,
  operationId: "applyCoupon",
  summary: "Apply a coupon code",
  description: "Records the coupon code the visitor applied in the conversation (the latest one is kept). E-commerce agents only. Limited per IP.",
  security: sessionSecurity,
  body: couponBodySchema,
  response: {
    200: jsonResponse("The applied coupon.", couponResponseSchema),
    ...sessionErrors,
    403: errorResponse("`coupon_not_available`: the agent's vertical is not `ecommerce`."),
  },
};
