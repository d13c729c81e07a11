import { describe, expect, test } from "vitest";
import type { Agent } from "../../src/tenants/agent.js";
import { SessionCache } from "../../src/widget/session-cache.js";
import type { SessionConversation } from "../../src/conversations/visitor-session-repository.js";

function conversation(id: string, agentId: string): SessionConversation {
  return { id, workspaceId: "ws_1", agentId, visitorId: `vis_${id}`, agentPublished: true, vertical: "general" };
}

function agent(id: string): { agent: Agent; conversationQuota: number | null; modelProviderRevision: string | null } {
  return {
    agent: {
      id,
      workspaceId: "ws_1",
      name: "Help",
      published: true,
      vertical: "general",
      allowedOrigins: ["https://shop.test"],
      personaName: "Ada",
      personaTone: "friendly",
      theme: { primary: "#2563eb" },
      starterPrompts: [],
      languageDefault: "en",
      branding: {},
      behaviorRules: [],
      officeHours: null,
      awayMessage: null,
      replyTime: null,
      answerModel: "default",
      instructions: { rules: "", length: "medium", when_unsure: "offer_person" },
      identityMode: "off",
      identitySecretSealed: null,
      identitySecretCreatedAt: null,
      routing: { mode: "manual", team: [] },
      createdAt: "2026-11-23T00:00:00.000Z",
      updatedAt: "2026-11-23T00:00:00.000Z",
    },
    conversationQuota: 100,
    modelProviderRevision: null,
  };
}

/** A cache on a clock the test moves by hand. */
function cacheOnClock(): { cache: SessionCache; clock: { ms: number } } {
  const clock = { ms: 1_800_000_000_000 };
  return { cache: new SessionCache(() => clock.ms), clock };
}

describe("session cache (happy)", () => {
  test("keeps a conversation and an agent for two seconds of the injected clock, then forgets them", () => {
    const { cache, clock } = cacheOnClock();
    cache.set(conversation("cnv_1", "agt_1"));
    cache.setAgent("agt_1", agent("agt_1"));
    clock.ms += 1_999;
    expect(cache.get("cnv_1")?.visitorId).toBe("vis_cnv_1");
    expect(cache.getAgent("agt_1")?.conversationQuota).toBe(100);
    clock.ms += 2;
    expect(cache.get("cnv_1")).toBeUndefined();
    expect(cache.getAgent("agt_1")).toBeUndefined();
  });

  test("a fresh set restarts the two seconds", () => {
    const { cache, clock } = cacheOnClock();
    cache.set(conversation("cnv_1", "agt_1"));
    clock.ms += 1_500;
    cache.set(conversation("cnv_1", "agt_1"));
    clock.ms += 1_500;
    expect(cache.get("cnv_1")).toBeDefined();
  });

  test("forget drops one conversation; forgetAgent drops the agent and only its conversations", () => {
    const { cache } = cacheOnClock();
    cache.set(conversation("cnv_1", "agt_1"));
    cache.set(conversation("cnv_2", "agt_1"));
    cache.set(conversation("cnv_3", "agt_2"));
    cache.setAgent("agt_1", agent("agt_1"));
    cache.setAgent("agt_2", agent("agt_2"));
    cache.forget("cnv_2");
    expect(cache.get("cnv_2")).toBeUndefined();
    expect(cache.get("cnv_1")).toBeDefined();

    cache.forgetAgent("agt_1");
    expect(cache.get("cnv_1")).toBeUndefined();
    expect(cache.getAgent("agt_1")).toBeUndefined();
    expect(cache.get("cnv_3")?.agentId).toBe("agt_2");
    expect(cache.getAgent("agt_2")).toBeDefined();
  });
});

describe("session cache (security)", () => {
  test("holds at most 50,000 conversations, dropping the least recently used first", () => {
    const { cache } = cacheOnClock();
    cache.set(conversation("cnv_first", "agt_1"));
    cache.set(conversation("cnv_second", "agt_1"));
    // Reading the first makes the second the least recently used.
    expect(cache.get("cnv_first")).toBeDefined();
    for (let index = 0; index < 49_999; index++) cache.set(conversation(`cnv_${index}`, "agt_1"));
    expect(cache.get("cnv_second")).toBeUndefined();
    expect(cache.get("cnv_first")).toBeDefined();
    expect(cache.get("cnv_49998")).toBeDefined();
  });
});
