/**
 * A client program written only against the types openapi-typescript generated from the live
 * /openapi.json (`./frontdesk-api.ts`, written next to this file by the test), with openapi-fetch.
 * The test typechecks it with tsc, then runs it: argv is the base URL, an agent id, the agent's
 * allowed origin and a workspace API token. It prints one JSON value of what it saw.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./frontdesk-api.js";

type Source = components["schemas"]["Source"];
type Answer = components["schemas"]["Answer"];
type ErrorCode = components["schemas"]["Error"]["error"]["code"];

const [baseUrl, agentId, origin, apiToken] = process.argv.slice(2);
if (!baseUrl || !agentId || !origin || !apiToken) throw new Error("usage: client-program <base url> <agent id> <origin> <api token>");

const client = createClient<paths>({ baseUrl });
const sourcesAuth = { Authorization: `Bearer ${apiToken}` };

const created = await client.POST("/api/v1/workspace/sources", {
  headers: sourcesAuth,
  body: {
    agent_id: agentId,
    kind: "text",
    title: "Delivery",
    source_url: `${origin}/help/delivery`,
    content: "Standard delivery takes three to five working days. Express delivery arrives the next working day when you order before 2 pm.",
  },
});
if (!created.data) throw new Error(`createSource: ${created.response.status}`);
let source: Source = created.data.data;
for (let attempt = 0; attempt < 200 && source.status === "pending"; attempt += 1) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  const read = await client.GET("/api/v1/workspace/sources/{id}", { params: { path: { id: source.id } }, headers: sourcesAuth });
  if (!read.data) throw new Error(`getSource: ${read.response.status}`);
  source = read.data.data;
}

const init = await client.POST("/api/v1/widget/init", {
  headers: { Origin: origin },
  body: { agent_id: agentId, page_url: `${origin}/products/1` },
});
if (!init.data) throw new Error(`initSession: ${init.response.status} ${init.error?.error.code}`);
const session = init.data.data;

const sent = await client.POST("/api/v1/widget/messages", {
  headers: { Authorization: `Bearer ${session.jwt}` },
  body: { message: "How long does standard delivery take?" },
});
if (!sent.data) throw new Error(`sendMessage: ${sent.response.status}`);
const answer: Answer = sent.data.data;

const listed = await client.GET("/api/v1/workspace/sources", { headers: sourcesAuth });
if (!listed.data) throw new Error(`listSources: ${listed.response.status}`);

const refused = await client.GET("/api/v1/workspace/sources", { headers: { Authorization: "Bearer fdk_not_a_token" } });
const refusedCode: ErrorCode | undefined = refused.error?.error.code;

const wrongOrigin = await client.POST("/api/v1/widget/init", {
  headers: { Origin: "https://elsewhere.example" },
  body: { agent_id: agentId, page_url: "https://elsewhere.example/" },
});

// The generated types must be strict enough to refuse these: an unused expectation fails tsc.
// @ts-expect-error `kind` is one of url, sitemap, text
await client.POST("/api/v1/workspace/sources", { headers: sourcesAuth, body: { agent_id: agentId, kind: "pdf", url: origin } });
// @ts-expect-error `message` is required
await client.POST("/api/v1/widget/messages", { headers: { Authorization: `Bearer ${session.jwt}` }, body: { page_url: origin } });
// @ts-expect-error a session has no `token` member (it is `jwt`)
void session.token;

console.log(
  JSON.stringify({
    source: { id: source.id, status: source.status, kind: source.kind, createdStatus: created.response.status },
    session: { conversationId: session.conversation_id, agentName: session.agent.name, reverbPort: session.reverb.port, jwt: session.jwt.length > 0 },
    answer: {
      conversationId: answer.conversation_id,
      content: answer.content,
      citations: answer.citations.map((citation) => citation.url),
      lowConfidence: answer.low_confidence,
    },
    listed: listed.data.data.map((entry) => entry.id),
    refused: { status: refused.response.status, code: refusedCode },
    wrongOrigin: { status: wrongOrigin.response.status, code: wrongOrigin.error?.error.code },
  }),
);
