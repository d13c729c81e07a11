import { afterAll, beforeAll, expect, it } from "vitest";
import { broadcastsOf } from "../../src/realtime/bus-channels.js";
import type { BusEvent } from "../../src/realtime/event-bus.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { LoopbackSite } from "../support/loopback-site.js";
import { bikeShopKnowledge } from "../support/knowledge.js";
import { seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const PUBLIC_URL = "http://console.frontdesk.test";

interface Source {
  id: string;
  agent_id: string;
  kind: string;
  status: string;
  syncing: boolean;
  url: string | null;
  title: string | null;
  progress: { pages_found: number; pages_indexed: number; pages_failed: number; pages_pending: number };
  error: { code: string; message: string } | null;
  failed_pages?: { url: string; error: { code: string; message: string }; indexed_before: boolean }[];
}

describeEachStore("the console's knowledge on %s", (kind) => {
  const site = new LoopbackSite();
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentRole: ConsoleSession;
  let stranger: ConsoleSession;
  let sitemapId = "";
  let textIds: string[] = [];

  beforeAll(async () => {
    await site.start();
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: PUBLIC_URL }, {
      workers: { allowedNetworks: ["127.0.0.1/32"], responseTimeoutMs: 1500, connectTimeoutMs: 1000 },
    });
    tenant = await seedTenant(t.services);
    other = await seedTenant(t.services);
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin" });
    agentRole = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    stranger = await createSignedInOperator(t, { workspaceId: other.workspaceId, role: "admin" });
  });
  afterAll(async () => {
    await t.close();
    await site.stop();
  });

  const call = (session: ConsoleSession, method: "GET" | "POST" | "DELETE", url: string, payload?: unknown, headers?: Record<string, string>) =>
    t.app.inject({
      method,
      url: `${CONSOLE}${url}`,
      headers: headers ?? session.headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const show = async (id: string): Promise<Source> => {
    const response = await call(agentRole, "GET", `/knowledge/sources/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  /** Polls (through the console route) until the source's sync has ended. */
  const settled = async (id: string): Promise<Source> => {
    await expect.poll(async () => (await show(id)).syncing, { timeout: 60_000, interval: 100 }).toBe(false);
    return show(id);
  };
  const tryQuestion = async (question: string, session: ConsoleSession = agentRole, agentId = tenant.agentId) => {
    const response = await call(session, "POST", "/knowledge/try", { agent_id: agentId, question });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const sourceUpdates = () => t.published.filter((event): event is Extract<BusEvent, { type: "source.updated" }> => event.type === "source.updated");
  const storedMessages = async () => (await t.services.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM messages`)).rows[0]!.count;

  it("happy: an admin adds a sitemap; its progress and the failed pages, each with why, show while and after it syncs", async () => {
    const created = await call(admin, "POST", "/knowledge/sources", { agent_id: tenant.agentId, kind: "sitemap", url: site.url("/sitemap_index.xml") });
    expect(created.statusCode, created.body).toBe(201);
    const source: Source = created.json().data;
    expect(source).toMatchObject({ agent_id: tenant.agentId, kind: "sitemap", status: "pending", syncing: true, url: site.url("/sitemap_index.xml"), failed_pages: [] });
    sitemapId = source.id;

    const done = await settled(sitemapId);
    expect(done.status).toBe("indexed");
    expect(done.progress).toEqual({ pages_found: 8, pages_indexed: 3, pages_failed: 5, pages_pending: 0 });
    expect(done.failed_pages!.map((page) => page.url).sort()).toEqual(
      ["/private/secret", "/slow", "/huge", "/file.pdf", "/redirect-private"].map((path) => site.url(path)).sort(),
    );
    for (const page of done.failed_pages!) {
      expect(page.error.code).toMatch(/^[a-z_]+$/);
      expect(page.error.message.length).toBeGreaterThan(10);
      expect(page.indexed_before).toBe(false);
    }
    // Live: the workspace channel heard the source while it synced, and last as it is now.
    const announced = () => sourceUpdates().filter((event) => event.sourceId === sitemapId);
    await expect.poll(() => announced().at(-1)?.syncing, { timeout: 10_000 }).toBe(false);
    expect(announced()[0]).toMatchObject({ workspaceId: tenant.workspaceId, agentId: tenant.agentId, status: "pending", syncing: true, deleted: false });
    expect(broadcastsOf(announced().at(-1)!)).toEqual([
      {
        channel: `private-workspace.${tenant.workspaceId}`,
        event: "source.updated",
        payload: {
          source_id: sitemapId,
          agent_id: tenant.agentId,
          status: "indexed",
          syncing: false,
          progress: done.progress,
          error: null,
          deleted: false,
        },
      },
    ]);
    const list = await call(agentRole, "GET", `/knowledge/sources?agent_id=${tenant.agentId}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([expect.objectContaining({ id: sitemapId, syncing: false, progress: done.progress })]);
  }, 90_000);

  it("happy: texts are added (the same text again returns the existing source) and a question tried is explained stage by stage in words, storing nothing", async () => {
    textIds = [];
    for (const text of bikeShopKnowledge) {
      const response = await call(admin, "POST", "/knowledge/sources", { agent_id: tenant.agentId, kind: "text", ...text });
      expect(response.statusCode, response.body).toBe(201);
      textIds.push(response.json().data.id);
    }
    const again = await call(admin, "POST", "/knowledge/sources", { agent_id: tenant.agentId, kind: "text", ...bikeShopKnowledge[0] });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(textIds[0]);
    for (const id of textIds) expect(await settled(id)).toMatchObject({ status: "indexed", title: expect.any(String), progress: { pages_found: 1, pages_indexed: 1 } });

    const conversations = async () => (await t.services.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM conversations`)).rows[0]!.count;
    const before = { messages: await storedMessages(), conversations: await conversations() };
    const battery = "https://shop.example.com/help/battery";
    const tried = await tryQuestion("How long does a full charge of the e-bike battery take?");
    expect(tried.decided_by).toBe("composition");
    expect(tried.steps.map((step: { stage: string }) => step.stage)).toEqual(["curated_answer", "person_request", "small_talk", "follow_up", "retrieval", "confidence", "composition"]);
    for (const step of tried.steps) expect(step.summary.length).toBeGreaterThan(10);
    const summaryOf = (stage: string) => tried.steps.find((step: { stage: string }) => step.stage === stage).summary;
    expect(summaryOf("retrieval")).toContain("the best is from “E-bike battery care”, which holds");
    expect(summaryOf("confidence")).toMatch(/^Sure: .*“E-bike battery care”/);
    expect(tried.sure).toBe(true);
    expect(tried.passages[0]).toMatchObject({ number: 1, url: battery, title: "E-bike battery care", cited: true });
    expect(tried.passages[0].matched_words).toEqual(expect.arrayContaining(["full", "charge", "battery"]));
    // Words, not scores: no passage carries a rank score, no signal or threshold is shown.
    for (const passage of tried.passages) expect(passage).not.toHaveProperty("score");
    expect(tried).not.toHaveProperty("confidence");
    expect(tried.answer).toMatchObject({ low_confidence: false, generator: "extractive", error: null, hands_over: false });
    expect(tried.answer.content).toMatch(/four hours/);
    expect(tried.answer.citations).toContainEqual(expect.objectContaining({ url: battery, title: "E-bike battery care" }));

    const unknown = await tryQuestion("Do you sell helicopter insurance for pilots in Antarctica?");
    expect(unknown.sure).toBe(false);
    expect(unknown.answer.low_confidence).toBe(true);
    expect(unknown.unknown_words).toEqual(expect.arrayContaining(["helicopter", "Antarctica"]));
    expect(unknown.steps.find((step: { stage: string }) => step.stage === "confidence").summary).toMatch(/^Unsure: .*“helicopter”/);

    // As the widget answers: small talk and a request for a person decide before the knowledge is searched.
    const thanks = await tryQuestion("thanks!");
    expect(thanks).toMatchObject({ decided_by: "small_talk", sure: null, passages: [], answer: { content: "You're welcome! Is there anything else I can help you with?", generator: "small-talk" } });
    const person = await tryQuestion("Can I talk to a human?");
    expect(person).toMatchObject({ decided_by: "person_request", answer: { content: "", hands_over: true } });
    expect({ messages: await storedMessages(), conversations: await conversations() }).toEqual(before);

    // An operator's curated answer decides first, as for a visitor.
    const curated = await call(admin, "POST", "/curated-answers", { agent_id: tenant.agentId, question: "Do you fit mudguards?", answer: "Yes, for free with any bike." });
    expect(curated.statusCode, curated.body).toBe(201);
    const fitted = await tryQuestion("Do you fit mudguards?");
    expect(fitted).toMatchObject({ decided_by: "curated_answer", passages: [], answer: { content: "Yes, for free with any bike.", generator: "curated" } });
    expect(fitted.steps[0].summary).toContain("“Do you fit mudguards?”");
    expect((await call(admin, "DELETE", `/curated-answers/${curated.json().data.id}`)).statusCode).toBe(204);
  }, 90_000);

  it("happy: re-sync fetches a page anew, and delete removes a source from what the bot cites", async () => {
    site.changingVersion = 1;
    const created = await call(admin, "POST", "/knowledge/sources", { agent_id: tenant.agentId, kind: "url", url: site.url("/changing") });
    expect(created.statusCode).toBe(201);
    const urlId: string = created.json().data.id;
    await settled(urlId);
    expect((await tryQuestion("When does the flagship store open in the morning?")).answer.content).toMatch(/nine/);

    site.changingVersion = 2;
    const resynced = await call(admin, "POST", `/knowledge/sources/${urlId}/resync`);
    expect(resynced.statusCode, resynced.body).toBe(202);
    await expect
      .poll(async () => (await tryQuestion("When does the flagship store open in the morning?")).answer.content, { timeout: 60_000, interval: 200 })
      .toMatch(/seven/);

    const deleted = await call(admin, "DELETE", `/knowledge/sources/${textIds[2]}`);
    expect(deleted.statusCode).toBe(204);
    expect(sourceUpdates().filter((event) => event.sourceId === textIds[2]).at(-1)).toMatchObject({ deleted: true, syncing: false });
    expect((await call(agentRole, "GET", `/knowledge/sources/${textIds[2]}`)).statusCode).toBe(404);
    const ids = (await call(agentRole, "GET", "/knowledge/sources")).json().data.map((source: Source) => source.id);
    expect(ids).not.toContain(textIds[2]);
    expect(ids).toEqual(expect.arrayContaining([sitemapId, urlId, textIds[0], textIds[1]]));
    const after = await tryQuestion("How long does a full charge of the e-bike battery take?");
    expect(after.passages.map((passage: { url: string }) => passage.url)).not.toContain("https://shop.example.com/help/battery");
  }, 90_000);

  it("error: bad bodies are 422 naming the member; an unknown agent or source is 404", async () => {
    for (const [payload, field] of [
      [{ agent_id: tenant.agentId, kind: "pdf", url: "https://x.example" }, "kind"],
      [{ agent_id: tenant.agentId, kind: "url", url: "ftp://x.example/file" }, "url"],
      [{ agent_id: tenant.agentId, kind: "text", content: "   " }, "content"],
    ] as const) {
      const response = await call(admin, "POST", "/knowledge/sources", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().error.fields)).toContain(field);
    }
    const unknownAgent = await call(admin, "POST", "/knowledge/sources", { agent_id: "agt_unknown", kind: "url", url: "https://x.example" });
    expect(unknownAgent.statusCode).toBe(404);
    expect(unknownAgent.json().error).toMatchObject({ code: "agent_not_found", message: expect.not.stringContaining("token") });
    for (const [method, url] of [["GET", "/knowledge/sources/src_unknown"], ["POST", "/knowledge/sources/src_unknown/resync"], ["DELETE", "/knowledge/sources/src_unknown"]] as const) {
      const response = await call(admin, method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error.code).toBe("source_not_found");
    }
    const empty = await call(admin, "POST", "/knowledge/try", { agent_id: tenant.agentId, question: "  " });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().error.fields)).toEqual(["question"]);
    const noAgent = await call(admin, "POST", "/knowledge/try", { agent_id: "agt_unknown", question: "Hello?" });
    expect(noAgent.statusCode).toBe(404);
  });

  it("security: an agent-role operator reads and tries questions but every source write is 403 forbidden, whatever the body", async () => {
    const count = (await call(admin, "GET", "/knowledge/sources")).json().data.length;
    for (const [method, url, payload] of [
      ["POST", "/knowledge/sources", { agent_id: tenant.agentId, kind: "url", url: site.url("/docs/shipping") }],
      ["POST", "/knowledge/sources", { nonsense: true }],
      ["POST", `/knowledge/sources/${sitemapId}/resync`, undefined],
      ["DELETE", `/knowledge/sources/${sitemapId}`, undefined],
    ] as const) {
      const response = await call(agentRole, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error.code).toBe("forbidden");
    }
    expect((await call(admin, "GET", "/knowledge/sources")).json().data.length).toBe(count);
    expect((await show(sitemapId)).status).toBe("indexed");
  });

  it("security: another workspace's sources and agents are 404 and never listed; a write without the public Origin is 403", async () => {
    for (const [method, url] of [["GET", `/knowledge/sources/${sitemapId}`], ["POST", `/knowledge/sources/${sitemapId}/resync`], ["DELETE", `/knowledge/sources/${sitemapId}`]] as const) {
      const response = await call(stranger, method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error.code).toBe("source_not_found");
    }
    expect((await call(stranger, "GET", `/knowledge/sources?agent_id=${tenant.agentId}`)).statusCode).toBe(404);
    expect((await call(stranger, "GET", "/knowledge/sources")).json().data).toEqual([]);
    const tried = await call(stranger, "POST", "/knowledge/try", { agent_id: tenant.agentId, question: "How long does delivery take?" });
    expect(tried.statusCode).toBe(404);
    expect(tried.json().error.code).toBe("agent_not_found");
    const pushed = await call(stranger, "POST", "/knowledge/sources", { agent_id: tenant.agentId, kind: "text", content: "Planted by another workspace." });
    expect(pushed.statusCode).toBe(404);
    expect((await show(sitemapId)).status).toBe("indexed");

    const csrf = await call(admin, "DELETE", `/knowledge/sources/${sitemapId}`, undefined, { cookie: admin.headers.cookie });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.json().error.code).toBe("csrf_origin_mismatch");
    const unauthenticated = await t.app.inject({ method: "GET", url: `${CONSOLE}/knowledge/sources` });
    expect(unauthenticated.statusCode).toBe(401);
  });
});
