import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { OPENAI_DONE, openAiChunkEvents } from "../answering/generate/fixtures/openai-chat-stream.js";
import { startLoopbackChatServer, type LoopbackChatServer, type ScriptedResponse } from "../answering/generate/loopback-chat-server.js";
import { CONSOLE, seedConsoleCast } from "../support/console-session.js";
import { bikeShopKnowledge, pushKnowledge } from "../support/knowledge.js";
import type { Pusher } from "../support/pusher-client.js";
import { createListeningTestApp, until, visitorPusher, type ListeningTestApp, type ReverbDescriptor } from "../support/realtime-clients.js";
import { bearer, SITE_ORIGIN } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";
import { consolePusherFor, watchChannel } from "../support/watched-channels.js";

const W = "/api/v1/widget";

/** A model's streamed answer, as gpt-4o-mini sends it. */
const modelAnswer = (deltas: readonly string[]): ScriptedResponse => ({
  status: 200,
  headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  steps: [...openAiChunkEvents(deltas), OPENAI_DONE].map((write) => ({ write })),
});

/**
 * The live paths a note must never take to the visitor: the conversation's channel (the visitor
 * holds it; the operators' workspace channel may carry the note) and the conversation history
 * sent to the answer model.
 */
describeEachStore("a note never reaches the visitor's channel nor the model's prompt, on %s", (kind) => {
  let t: ListeningTestApp;
  let model: LoopbackChatServer;
  let cast: Awaited<ReturnType<typeof seedConsoleCast>>;
  const clients: Pusher[] = [];

  beforeAll(async () => {
    model = await startLoopbackChatServer();
    t = await createListeningTestApp(
      kind,
      {
        FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000",
        FRONTDESK_LLM_PROVIDER: "openai",
        FRONTDESK_LLM_BASE_URL: model.origin,
        FRONTDESK_LLM_MODEL: "gpt-4o-mini",
        FRONTDESK_LLM_API_KEY: "test-key",
        FRONTDESK_LLM_TIMEOUT_S: "30",
      },
      { workers: { allowPrivateNetworks: true } },
    );
    cast = await seedConsoleCast(t, { admin: "Ana Lopez" });
    await pushKnowledge(t, cast.tenant.workspaceId, cast.tenant.agentId, bikeShopKnowledge);
  }, 120_000);
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
  });

  const url = (path: string) => `http://127.0.0.1:${t.port}${path}`;
  const init = async () => {
    const response = await fetch(url(`${W}/init`), {
      method: "POST",
      headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: cast.tenant.agentId, page_url: `${SITE_ORIGIN}/`, new_conversation: true }),
    });
    const { data } = (await response.json()) as { data: { jwt: string; conversation_id: string; reverb: ReverbDescriptor } };
    return data;
  };
  const consoleCall = async (path: string, body: unknown) => {
    const response = await fetch(url(`${CONSOLE}${path}`), { method: "POST", headers: { ...cast.admin.headers, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
  };
  const ask = async (jwt: string, message: string) => {
    const response = await fetch(url(`${W}/messages`), { method: "POST", headers: { ...bearer(jwt), "content-type": "application/json" }, body: JSON.stringify({ message }) });
    expect(response.status, await response.clone().text()).toBe(200);
  };

  it("security: the visitor's conversation channel never hears a note; the operators' workspace channel does", async () => {
    const secret = `live-secret-${Math.random().toString(36).slice(2)}`;
    const session = await init();
    const visitor = visitorPusher(session.reverb, url(""), session.jwt);
    const operators = consolePusherFor(session.reverb, url(""), cast.admin.headers);
    clients.push(visitor, operators);
    const visitorChannel = await watchChannel(visitor, `private-conversation.${session.conversation_id}`);
    const workspaceChannel = await watchChannel(operators, `private-workspace.${cast.tenant.workspaceId}`);
    // The operator has the conversation open too: its channel is shared with the visitor, so it carries no note either.
    const operatorOnConversation = await watchChannel(operators, `private-conversation.${session.conversation_id}`);

    await consoleCall(`/conversations/${session.conversation_id}/assign`, {});
    await consoleCall(`/conversations/${session.conversation_id}/notes`, { content: `${secret} — refund approved, @Ana Lopez please confirm` });
    await consoleCall(`/conversations/${session.conversation_id}/messages`, { content: "Your refund is on its way." });

    // The reply was published after the note: once the visitor heard it, a note on their channel would have come first.
    await until(() => visitorChannel.events("message.created").some((message) => JSON.stringify(message).includes("Your refund is on its way.")), 10_000);
    await until(() => workspaceChannel.events("note.created").length > 0, 10_000);
    expect(workspaceChannel.events("note.created")[0]).toMatchObject({ conversation_id: session.conversation_id, content: expect.stringContaining(secret) });
    expect(JSON.stringify(visitorChannel.heard)).not.toContain(secret);
    expect(visitorChannel.heard.map((entry) => entry.event)).not.toContain("note.created");
    await until(() => operatorOnConversation.events("message.created").some((message) => JSON.stringify(message).includes("Your refund is on its way.")), 10_000);
    expect(JSON.stringify(operatorOnConversation.heard)).not.toContain(secret);
  });

  it("security: the conversation history sent to the answer model holds the visitor's and the bot's turns, never a note", async () => {
    const secret = `prompt-secret-${Math.random().toString(36).slice(2)}`;
    const session = await init();
    model.respondWith(modelAnswer(["Standard", " delivery", " takes", " three", " to", " five", " working", " days", " [", "1", "]."]));
    await ask(session.jwt, "How long does delivery take?");
    // While the bot still answers, an operator notes the conversation (no take-over: the bot keeps answering).
    await consoleCall(`/conversations/${session.conversation_id}/notes`, { content: `${secret}: this visitor returned two bikes already` });
    const before = model.requests.length;
    model.respondWith(modelAnswer(["We", " do", " not", " deliver", " on", " Sundays", " [", "1", "]."]));
    await ask(session.jwt, "Do you deliver on Sundays?");
    expect(model.requests.length).toBe(before + 1);
    const sent = JSON.stringify(model.requests.at(-1)!.body);
    // The history is there (the first question), the note is not.
    expect(sent).toContain("How long does delivery take?");
    expect(sent).toContain("Do you deliver on Sundays?");
    expect(sent).not.toContain(secret);
    expect(sent).not.toContain("returned two bikes");
  });
});
