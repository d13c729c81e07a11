import { transcriptBodySchema, transcriptResponseSchema } from "@frontdesk/contracts";
import { jsonResponse, sessionErrors, sessionSecurity } from "../openapi/route-responses.js";

export const transcriptRouteSchema = {
  tags: ["widget"],
  operationId: "requestTranscript",
  summary: "E-mail the conversation's transcript",
  description:
    "Queues the conversation's transcript (the visitor's, the bot's and the operators' messages) to the address the visitor left " +
    "(POST /leads), and only to it: 422 with `fields.email` when no address was left, or when `email` is given and is not that address " +
    "(the route never relays the conversation to an address nobody left as a lead; a widget leaves the address first, then asks). " +
    "Offered when the conversation closes. `waiting`: e-mail " +
    "is not set up on this service yet, the mail goes out once it is. Three an hour per conversation " +
    "(`FRONTDESK_RATE_LIMIT_TRANSCRIPTS_PER_HOUR`) and 20 an hour per client IP, and shares the session token's budget.",
  security: sessionSecurity,
  body: transcriptBodySchema,
  response: {
    202: jsonResponse("Queued.", transcriptResponseSchema),
    ...sessionErrors,
  },
};
