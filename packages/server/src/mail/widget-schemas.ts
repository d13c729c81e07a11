import { transcriptBodySchema, transcriptResponseSchema } from "@frontdesk/contracts";
import { jsonResponse, sessionErrors, sessionSecurity } from "../openapi/route-responses.js";

export const transcriptRouteSchema = {
  tags: ["widget"],
  operationId: "requestTranscript",
  summary: "E-mail the conversation's transcript",
  description:
    "Queues the conversation's transcript (the visitor's, the bot's and the operators' messages) to `email`, or to the address the " +
    "visitor left (POST /leads); 422 with `fields.email` when there is neither. Offered when the conversation closes. `waiting`: e-mail " +
    "is not set up on this service yet, the mail goes out once it is. Three an hour per conversation " +
    "(`FRONTDESK_RATE_LIMIT_TRANSCRIPTS_PER_HOUR`) and 20 an hour per client IP, and shares the session token's budget.",
  security: sessionSecurity,
  body: transcriptBodySchema,
  response: {
    202: jsonResponse("Queued.", transcriptResponseSchema),
    ...sessionErrors,
  },
};
