import { answerResponseSchema, messageBodySchema, messageHeadersSchema, streamFrameSchema } from "@frontdesk/contracts";
import { errorResponse, jsonResponse, sessionErrors, sessionSecurity } from "../openapi/route-responses.js";

const tags = ["widget"];

const answerDescription =
  "Stores the visitor's message, retrieves the agent's knowledge (hybrid vector + BM25 search) and answers from it, " +
  "citing the documents used; `low_confidence` says the knowledge did not ground the answer. The bot answers only while the " +
  "conversation's `status` is `bot`: while a person is asked for (`awaiting_human`) or an operator has it (`human`) the " +
  "message is stored and shown to the operators live, and the answer is empty with `awaiting_human`. A message in a " +
  "`closed` conversation reopens it in `bot` (a system message \"Conversation reopened\" comes first). When an operator " +
  "takes the conversation over while the answer is being generated, the reply is discarded (never stored nor sent to " +
  "the operators): the answer is empty with `discarded`, and a streamed answer ends with `done` `discarded` (the widget " +
  "drops the text it showed; the operator's `conversation.updated` and system message arrive on the conversation's channel). " +
  "Shares the session token's budget with `/messages/stream` and `/events`.\n\n" +
  "**Idempotency-Key** (optional header, 1–255 printable ASCII characters, e.g. a random UUID per message; the widget " +
  "sends one with every message and the same one when it sends the message again): a repeat of the key in the same " +
  "conversation within 24 hours stores nothing and answers the first request's final answer (on `/messages/stream` as " +
  "a stream: the whole content as one `token` frame, then `citations` and `done`; the two routes share keys). A repeat " +
  "with another body is 422 `idempotency_key_reused`; one while the first is still being answered is 409 " +
  "`idempotency_request_in_progress` with `Retry-After: 1`. When the first request ended without an answer (the " +
  "service stopped), the repeat answers the message it stored, without storing it again.\n\n" +
  "**Attachments**: `attachment_ids` sends uploads of this conversation (POST /widget/attachments) with the message; " +
  "`message` may then be empty, and the bot says nothing to files alone. Files never reach the answer model: only the " +
  "text is answered. An id that is not an unsent upload of this conversation (unknown, another conversation's, or sent " +
  "already) is 404 `attachment_not_found`, and nothing is stored.";

const attachmentErrors = {
  404: errorResponse(
    "`agent_not_found`: the session's agent has been unpublished since init; `attachment_not_found`: an id of `attachment_ids` is not an unsent upload of this conversation.",
  ),
};

const idempotencyErrors = {
  409: errorResponse("`idempotency_request_in_progress`: a request with this `Idempotency-Key` is still being answered (`Retry-After: 1`)."),
  422: errorResponse(
    "`validation_failed`: the body or the `Idempotency-Key` header is invalid (`fields`); `idempotency_key_reused`: the key was sent before with another body.",
  ),
};

/** The route schemas of the message routes: validation, serialisation and the OpenAPI document. */
export const messagesRouteSchema = {
  tags,
  operationId: "sendMessage",
  summary: "Send a message and get the whole answer",
  description: answerDescription,
  security: sessionSecurity,
  headers: messageHeadersSchema,
  body: messageBodySchema,
  response: {
    200: jsonResponse("The bot's answer, with its citations.", answerResponseSchema),
    ...sessionErrors,
    ...idempotencyErrors,
    ...attachmentErrors,
  },
};

export const streamDescription = [
  "A Server-Sent Events stream (`Content-Type: text/event-stream`, `Cache-Control: no-cache`, `X-Accel-Buffering: no`). " +
    "Each frame is one line `data: <JSON>` followed by a blank line; the JSON is a `StreamFrame`, told apart by `event`:",
  "",
  '- `token` `{"event":"token","token":"…"}`: the next piece of the answer, in order (any number);',
  '- `citations` `{"event":"citations","citations":[{"id":1,"url":"…"}]}`: once, after the last token;',
  '- `error` `{"event":"error","code":"generation_failed"|"generation_timeout"|"internal_error","message":"…"}`: ' +
    "generation failed after tokens were sent; `done` follows;",
  '- `done` `{"event":"done","conversation_id":"…","message_id":"…","low_confidence":false}`: always last; ' +
    'while a human is requested it is the only frame: `{"event":"done","conversation_id":"…","awaiting_human":true}`; ' +
    'when an operator took over while the answer was generated, the tokens sent are void and it is ' +
    '`{"event":"done","conversation_id":"…","discarded":true}` (no `citations` frame).',
  "",
  "While a model thinks, a comment line `: keep-alive` is sent every FRONTDESK_SSE_HEARTBEAT_SECONDS (15 s). " +
    "Errors found before the stream starts (token, body, rate limit) are ordinary JSON error responses.",
].join("\n");

export const messagesStreamRouteSchema = {
  tags,
  operationId: "streamMessage",
  summary: "Send a message and stream the answer (Server-Sent Events)",
  description: answerDescription,
  security: sessionSecurity,
  headers: messageHeadersSchema,
  body: messageBodySchema,
  response: {
    200: { description: streamDescription, content: { "text/event-stream": { schema: streamFrameSchema } } },
    ...sessionErrors,
    ...idempotencyErrors,
    ...attachmentErrors,
  },
};
