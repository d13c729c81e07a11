import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { insertMessage } from "../../src/conversations/message-repository.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { adminOf, bearer, seedTenant, SITE_ORIGIN, startSession, type StartedSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { hostileString, percentEncode } from "../support/hostile-arbitraries.js";

/** Cursor-shaped values (base64url JSON) at the edges of what a cursor may hold. */
const cursorLikes = [
  ["99999999999999999", "cnv_x"],
  ["9999999999999999999", "cnv_x"],
  ["0", "cnv_\u0000"],
  [1, "0", "ntf_x"],
  [0, "99999999999999999", "ntf_x"],
].map((values) => Buffer.from(JSON.stringify(values)).toString("base64url"));

interface ListItem {
  id: string;
  agent_id: string;
  status: string;
  assignee: { id: string; name: string } | null;
  visitor: { id: string; anon_id: string };
  last_message: { seq: number | null; role: string; excerpt: string; created_at: string } | null;
  unread_count: number;
}

interface ConsoleMessage {
  id: string;
  seq: number | null;
  role: string;
  content: string;
  citations: { id: number; url: string }[];
  low_confidence: boolean;
  author: { id: string | null; name: string } | null;
}

describeEachStore("the console's conversation reads on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let otherTenant: Tenant;
  let ana: ConsoleSession;
  let bob: ConsoleSession;
  let eve: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services, { vertical: "ecommerce" });
    otherTenant = await seedTenant(t.services);
    ana = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
    bob = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin", name: "Bob" });
    eve = await createSignedInOperator(t, { workspaceId: otherTenant.workspaceId, role: "admin", name: "Eve" });
  });
  afterAll(() => t.close());

  const get = (session: ConsoleSession | null, url: string) =>
    t.app.inject({ method: "GET", url: `${CONSOLE}${url}`, headers: session ? session.headers : {} });
  const post = (session: ConsoleSession | null, url: string, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}${url}`, headers: session ? session.headers : {}, payload });
  const list = async (session: ConsoleSession, query = ""): Promise<{ data: ListItem[]; next_cursor: string | null }> => {
    const response = await get(session, `/conversations${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const say = async (session: StartedSession, message: string) => {
    const response = await t.app.inject({ method: "POST", url: "/api/v1/widget/messages", headers: bearer(session.jwt), payload: { message } });
    expect(response.statusCode, response.body).toBe(200);
  };
  /** A new visitor's conversation in which the visitor wrote `message` (the bot answered). */
  const conversationWith = async (message: string, agentId = tenant.agentId) => {
    const session = await startSession(t.app, agentId);
    await say(session, message);
    return session;
  };

  describe("GET /conversations", () => {
    it("happy: newest activity first, each with its visitor, last message, status, assignee and unread count; untouched conversations are left out", async () => {
      const untouched = await startSession(t.app, tenant.agentId);
      const older = await conversationWith("Where is my parcel, order 1001?");
      const newer = await conversationWith("Do you ship to Iceland?");
      const { data, next_cursor } = await list(ana);
      const ids = data.map((item) => item.id);
      expect(ids).not.toContain(untouched.conversationId);
      expect(ids.indexOf(newer.conversationId)).toBeLessThan(ids.indexOf(older.conversationId));
      expect(next_cursor).toBeNull();
      const item = data.find((entry) => entry.id === newer.conversationId)!;
      expect(item).toMatchObject({
        agent_id: tenant.agentId,
        status: "bot",
        assignee: null,
        visitor: { id: newer.visitorId, anon_id: newer.anonymousId },
        unread_count: 1,
      });
      expect(item.last_message).toMatchObject({ role: "bot" });
      expect(item.last_message!.excerpt.length).toBeGreaterThan(0);
      expect(item.last_message!.excerpt.length).toBeLessThanOrEqual(200);
    });

    it("happy: the excerpt is the last message's first 200 characters", async () => {
      const session = await startSession(t.app, tenant.agentId);
      const long = `${"x".repeat(250)} end`;
      await insertMessage(t.services.db, { conversationId: session.conversationId, role: "visitor", content: long });
      const item = (await list(ana)).data.find((entry) => entry.id === session.conversationId)!;
      expect(item.last_message).toMatchObject({ role: "visitor", excerpt: long.slice(0, 200) });
    });

    it("happy: status filters one status or several; agent_id filters the agent", async () => {
      const waiting = await conversationWith("I need a person please");
      expect((await t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(waiting.jwt), payload: {} })).statusCode).toBe(200);
      const botOnly = await conversationWith("Just browsing");
      const awaiting = (await list(ana, "?status=awaiting_human")).data;
      expect(awaiting.map((item) => item.id)).toContain(waiting.conversationId);
      expect(awaiting.every((item) => item.status === "awaiting_human")).toBe(true);
      const bot = (await list(ana, "?status=bot")).data;
      expect(bot.map((item) => item.id)).toContain(botOnly.conversationId);
      expect(bot.map((item) => item.id)).not.toContain(waiting.conversationId);
      const both = (await list(ana, "?status=bot,awaiting_human&limit=100")).data.map((item) => item.id);
      expect(both).toEqual(expect.arrayContaining([waiting.conversationId, botOnly.conversationId]));
      expect((await list(ana, "?status=closed")).data.map((item) => item.id)).not.toContain(waiting.conversationId);

      const second = (await runAdminCommand(adminOf(t.services), {
        command: "agent.create",
        workspaceId: tenant.workspaceId,
        name: "Second",
        origins: [SITE_ORIGIN],
        vertical: "general",
        draft: false,
        personaName: "Sam",
        tone: "calm",
        primaryColor: "#000000",
        starterPrompts: [],
        language: "en",
      })) as { id: string };
      const onSecond = await conversationWith("Hello second agent", second.id);
      const ofSecond = (await list(ana, `?agent_id=${second.id}`)).data;
      expect(ofSecond.map((item) => item.id)).toEqual([onSecond.conversationId]);
      expect((await list(ana, "?agent_id=agt_unknown")).data).toEqual([]);
    });

    it("happy: assignee=me, none and an operator id; another workspace's operator id matches nothing", async () => {
      const mine = await conversationWith("Assign me to Ana");
      const bobs = await conversationWith("Assign me to Bob");
      const nobodys = await conversationWith("Nobody takes me");
      expect((await post(ana, `/conversations/${mine.conversationId}/assign`)).statusCode).toBe(200);
      expect((await post(bob, `/conversations/${bobs.conversationId}/assign`)).statusCode).toBe(200);

      const anaMine = (await list(ana, "?assignee=me&limit=100")).data;
      expect(anaMine.map((item) => item.id)).toEqual([mine.conversationId]);
      expect(anaMine[0]).toMatchObject({ status: "human", assignee: { id: ana.operator.id, name: "Ana" } });
      expect((await list(bob, "?assignee=me&limit=100")).data.map((item) => item.id)).toEqual([bobs.conversationId]);
      expect((await list(ana, `?assignee=${bob.operator.id}&limit=100`)).data.map((item) => item.id)).toEqual([bobs.conversationId]);
      const unassigned = (await list(ana, "?assignee=none&limit=100")).data;
      expect(unassigned.map((item) => item.id)).toContain(nobodys.conversationId);
      expect(unassigned.every((item) => item.assignee === null)).toBe(true);
      expect((await list(ana, `?assignee=${eve.operator.id}`)).data).toEqual([]);
    });

    it("happy: q finds conversations by the words of their messages (any case, phrases), only in the workspace, never in system messages", async () => {
      const bikes = await conversationWith("My Tandem bicycle arrived with a bent wheel");
      const shoes = await conversationWith("These running shoes are too small");
      const elsewhere = await conversationWith("My tandem bicycle is great", otherTenant.agentId);
      const found = (await list(ana, "?q=tandem&limit=100")).data.map((item) => item.id);
      expect(found).toContain(bikes.conversationId);
      expect(found).not.toContain(shoes.conversationId);
      expect(found).not.toContain(elsewhere.conversationId);
      expect((await list(ana, `?q=${encodeURIComponent('"bent wheel"')}&limit=100`)).data.map((item) => item.id)).toEqual([bikes.conversationId]);
      expect((await list(ana, `?q=${encodeURIComponent('"wheel bent"')}&limit=100`)).data).toEqual([]);
      expect((await list(ana, "?q=SHOES&limit=100")).data.map((item) => item.id)).toEqual([shoes.conversationId]);
      // "joined" is only in the system message of a takeover.
      expect((await post(ana, `/conversations/${shoes.conversationId}/assign`)).statusCode).toBe(200);
      expect((await list(ana, "?q=joined&limit=100")).data).toEqual([]);
      expect((await list(ana, `?q=${encodeURIComponent("-- !!")}&limit=100`)).data).toEqual([]);
      expect((await list(ana, "?q=tandem&status=human")).data).toEqual([]);
    });

    it("happy: the cursor pages through every conversation once, in order, while conversations are written concurrently", async () => {
      // A workspace of its own: the list is the workspace's.
      const shop = await seedTenant(t.services);
      const operator = await createSignedInOperator(t, { workspaceId: shop.workspaceId, role: "agent" });
      const sessions: StartedSession[] = [];
      for (let index = 0; index < 9; index += 1) {
        const session = await startSession(t.app, shop.agentId);
        await insertMessage(t.services.db, { conversationId: session.conversationId, role: "visitor", content: `question ${index}` });
        sessions.push(session);
      }
      // Four conversations share one last activity: the id orders them.
      await t.services.db.query(`UPDATE conversations SET last_activity_at = (SELECT last_activity_at FROM conversations WHERE id = $1) WHERE id = ANY (SELECT jsonb_array_elements_text($2::jsonb))`, [
        sessions[4]!.conversationId,
        JSON.stringify(sessions.slice(2, 6).map((session) => session.conversationId)),
      ]);
      const expected = (
        await t.services.db.query<{ id: string }>(
          `SELECT id FROM conversations WHERE workspace_id = $1 ORDER BY last_activity_at DESC, id`,
          [shop.workspaceId],
        )
      ).rows.map((row) => row.id);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        // Between pages, new conversations start and get messages while the page is read.
        const [response] = await Promise.all([
          t.app.inject({ method: "GET", url: `${CONSOLE}/conversations${query}`, headers: operator.headers }),
          (async () => {
            const late = await startSession(t.app, shop.agentId);
            await insertMessage(t.services.db, { conversationId: late.conversationId, role: "visitor", content: "late" });
          })(),
        ]);
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json() as { data: ListItem[]; next_cursor: string | null };
        expect(body.data.length).toBeLessThanOrEqual(2);
        seen.push(...body.data.map((item) => item.id).filter((id) => expected.includes(id)));
        cursor = body.next_cursor;
        pages += 1;
      } while (cursor !== null && pages < 20);
      // Late conversations can only appear at the head of the first page; every earlier one comes once, in order.
      expect(seen).toEqual(expected);
    });

    it("error: bad query parameters are 422 naming the parameter", async () => {
      for (const [query, field] of [
        ["status=open", "querystring.status"],
        ["status=bot,", "querystring.status"],
        ["assignee=me%20too", "querystring.assignee"],
        ["agent_id=%3Cscript%3E", "querystring.agent_id"],
        ["limit=0", "querystring.limit"],
        ["limit=101", "querystring.limit"],
        ["limit=ten", "querystring.limit"],
        ["q=", "querystring.q"],
        [`q=${"a".repeat(201)}`, "querystring.q"],
        ["cursor=not-a-cursor", "querystring.cursor"],
        [`cursor=${Buffer.from(JSON.stringify(["12", "cnv_x", 3])).toString("base64url")}`, "querystring.cursor"],
        [`cursor=${Buffer.from(JSON.stringify(["1.5", "cnv_x"])).toString("base64url")}`, "querystring.cursor"],
        [`cursor=${Buffer.from(JSON.stringify(["9999999999999999999", "cnv_x"])).toString("base64url")}`, "querystring.cursor"],
        [`cursor=${Buffer.from(JSON.stringify(["-1", "cnv_x"])).toString("base64url")}`, "querystring.cursor"],
      ] as const) {
        const response = await get(ana, `/conversations?${query}`);
        expect(response.statusCode, query).toBe(422);
        expect(response.json().error.code).toBe("validation_failed");
        expect(Object.keys(response.json().error.fields ?? {}), query).toContain(field);
      }
    });

    it("security: another workspace's conversations are never listed", async () => {
      const theirs = await conversationWith("Private to the other workspace", otherTenant.agentId);
      expect((await list(ana, "?limit=100")).data.map((item) => item.id)).not.toContain(theirs.conversationId);
      const evesList = (await list(eve, "?limit=100")).data;
      expect(evesList.map((item) => item.id)).toContain(theirs.conversationId);
      expect(evesList.every((item) => item.agent_id === otherTenant.agentId)).toBe(true);
    });
  });

  describe("hostile query strings", () => {
    it("security: the read routes' parameters with hostile values never get a 5xx, and every error is in our shape", async () => {
      const session = await conversationWith("fuzz me");
      const names = ["status", "agent_id", "assignee", "q", "cursor", "limit", "after_seq"];
      const parameter = fc.tuple(
        fc.constantFrom(...names),
        fc.oneof(
          hostileString.filter((value) => value.length < 300),
          fc.constantFrom("bot", "me", "none", "0", "1", "25", "-1", "1e3", "0x10", "2147483647", "99999999999999999999", ...cursorLikes),
        ),
      );
      const paths = [`/conversations`, `/conversations/${session.conversationId}`, `/conversations/${session.conversationId}/messages`, `/notifications`];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...paths), fc.array(parameter, { minLength: 1, maxLength: 4 }), async (path, pairs) => {
          const query = pairs.map(([name, value]) => `${name}=${percentEncode(value)}`).join("&");
          const response = await get(ana, `${path}?${query}`);
          expect(response.statusCode, `${path}?${query}`).toBeLessThan(500);
          if (response.statusCode >= 400) expect(response.json().error.code, `${path}?${query}`).toEqual(expect.any(String));
        }),
        { numRuns: 150, seed: 10 },
      );
    });
  });

  describe("unread counts and POST /conversations/{id}/read", () => {
    it("happy: each operator has their own marker; it only moves forward; a later visitor message is unread again", async () => {
      const session = await startSession(t.app, tenant.agentId);
      const first = await insertMessage(t.services.db, { conversationId: session.conversationId, role: "visitor", content: "one" });
      await insertMessage(t.services.db, { conversationId: session.conversationId, role: "bot", content: "answer" });
      await insertMessage(t.services.db, { conversationId: session.conversationId, role: "visitor", content: "two" });
      const unreadOf = async (operator: ConsoleSession) => (await list(operator, "?limit=100")).data.find((item) => item.id === session.conversationId)!.unread_count;
      expect(await unreadOf(ana)).toBe(2);
      expect(await unreadOf(bob)).toBe(2);

      const partial = await post(ana, `/conversations/${session.conversationId}/read`, { seq: first.seq });
      expect(partial.statusCode, partial.body).toBe(200);
      expect(partial.json().data).toEqual({ conversation_id: session.conversationId, last_read_seq: first.seq, unread_count: 1 });
      const all = await post(ana, `/conversations/${session.conversationId}/read`);
      expect(all.json().data).toMatchObject({ last_read_seq: 3, unread_count: 0 });
      const backwards = await post(ana, `/conversations/${session.conversationId}/read`, { seq: 1 });
      expect(backwards.json().data).toMatchObject({ last_read_seq: 3, unread_count: 0 });
      const beyond = await post(bob, `/conversations/${session.conversationId}/read`, { seq: 1000 });
      expect(beyond.json().data).toMatchObject({ last_read_seq: 3, unread_count: 0 });
      expect(await unreadOf(ana)).toBe(0);

      await insertMessage(t.services.db, { conversationId: session.conversationId, role: "visitor", content: "three" });
      expect(await unreadOf(ana)).toBe(1);
      const detail = await get(ana, `/conversations/${session.conversationId}`);
      expect(detail.json().data).toMatchObject({ unread_count: 1, last_read_seq: 3 });
      // Reading the detail changes nothing.
      expect(await unreadOf(ana)).toBe(1);
    });

    it("happy: an operator's reply marks what the visitor wrote before it as read, for its author only", async () => {
      const session = await conversationWith("Is my order shipped?");
      const unreadOf = async (operator: ConsoleSession) => (await list(operator, "?limit=100")).data.find((item) => item.id === session.conversationId)!.unread_count;
      expect(await unreadOf(ana)).toBe(1);
      expect((await post(ana, `/conversations/${session.conversationId}/assign`)).statusCode).toBe(200);
      const reply = await post(ana, `/conversations/${session.conversationId}/messages`, { content: "Let me check." });
      expect(reply.statusCode, reply.body).toBe(201);
      expect(await unreadOf(ana)).toBe(0);
      expect(await unreadOf(bob)).toBe(1);
      await say(session, "Thanks!");
      expect(await unreadOf(ana)).toBe(1);
    });

    it("error: another workspace's conversation, an unknown id and a bad seq", async () => {
      const session = await conversationWith("mark me");
      for (const [operator, id] of [[eve, session.conversationId], [ana, "cnv_unknown"]] as const) {
        const response = await post(operator, `/conversations/${id}/read`);
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe("conversation_not_found");
      }
      for (const payload of [{ seq: -1 }, { seq: 1.5 }, { seq: "3" }]) {
        expect((await post(ana, `/conversations/${session.conversationId}/read`, payload)).statusCode).toBe(422);
      }
      const noOrigin = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${session.conversationId}/read`, headers: { cookie: ana.headers.cookie }, payload: {} });
      expect(noOrigin.statusCode).toBe(403);
    });
  });

  describe("GET /conversations/{id}", () => {
    it("happy: the visitor (pages, browser, lead), satisfaction, coupon, status, and messages with citations, low confidence and author", async () => {
      const userAgent = "Mozilla/5.0 (X11; Linux x86_64) Frontdesk-Test/1.0";
      const init = (pageUrl: string, anonId?: string) =>
        t.app.inject({
          method: "POST",
          url: "/api/v1/widget/init",
          headers: { origin: SITE_ORIGIN, "user-agent": userAgent },
          payload: { agent_id: tenant.agentId, page_url: pageUrl, ...(anonId ? { anon_id: anonId } : {}) },
        });
      const first = (await init(`${SITE_ORIGIN}/landing`)).json().data;
      await init(`${SITE_ORIGIN}/checkout`, first.anonymous_id);
      const session = { jwt: first.jwt as string, conversationId: first.conversation_id as string };
      const widget = (url: string, payload: Record<string, unknown>) =>
        t.app.inject({ method: "POST", url: `/api/v1/widget${url}`, headers: bearer(session.jwt), payload });
      expect((await widget("/leads", { email: "Visitor@Example.com", name: "Vera" })).statusCode).toBe(201);
      expect((await widget("/satisfaction", { rating: "good", comment: "quick" })).statusCode).toBe(200);
      expect((await widget("/coupon/apply", { code: "SPRING-10" })).statusCode).toBe(200);
      await insertMessage(t.services.db, { conversationId: session.conversationId, role: "visitor", content: "Is the helmet included?" });
      await insertMessage(t.services.db, {
        conversationId: session.conversationId,
        role: "bot",
        content: "Yes, every bike ships with a helmet [1].",
        citations: [{ id: 7, url: `${SITE_ORIGIN}/bikes` }],
        lowConfidence: true,
      });
      expect((await post(ana, `/conversations/${session.conversationId}/assign`)).statusCode).toBe(200);
      expect((await post(ana, `/conversations/${session.conversationId}/messages`, { content: "Hi, Ana here." })).statusCode).toBe(201);

      const response = await get(bob, `/conversations/${session.conversationId}`);
      expect(response.statusCode, response.body).toBe(200);
      const detail = response.json().data;
      expect(detail).toMatchObject({
        id: session.conversationId,
        agent_id: tenant.agentId,
        status: "human",
        assignee: { id: ana.operator.id, name: "Ana" },
        human_requested_at: null,
        visitor: {
          id: first.visitor_id,
          anon_id: first.anonymous_id,
          first_page_url: `${SITE_ORIGIN}/landing`,
          last_page_url: `${SITE_ORIGIN}/checkout`,
          user_agent: userAgent,
          lead: { email: "Visitor@Example.com", name: "Vera", conversation_id: session.conversationId },
        },
        satisfaction: { rating: "good", comment: "quick" },
        coupon: { code: "SPRING-10" },
        unread_count: 1,
        last_read_seq: null,
        has_earlier_messages: false,
      });
      const messages = detail.messages as ConsoleMessage[];
      expect(messages.map((message) => message.role)).toEqual(["visitor", "bot", "system", "operator"]);
      expect(messages[1]).toMatchObject({ citations: [{ id: 7, url: `${SITE_ORIGIN}/bikes` }], low_confidence: true, author: null });
      expect(messages[0]).toMatchObject({ citations: [], low_confidence: false });
      expect(messages[3]).toMatchObject({ content: "Hi, Ana here.", author: { id: ana.operator.id, name: "Ana" } });
      const seqs = messages.map((message) => message.seq!);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(detail.seq).toBeGreaterThanOrEqual(seqs.at(-1)!);
    });

    it("happy: a message's page_url becomes the visitor's last page; the first stays", async () => {
      const session = await startSession(t.app, tenant.agentId);
      const response = await t.app.inject({
        method: "POST",
        url: "/api/v1/widget/messages",
        headers: bearer(session.jwt),
        payload: { message: "Which size fits me?", page_url: `${SITE_ORIGIN}/sizes` },
      });
      expect(response.statusCode).toBe(200);
      const detail = (await get(ana, `/conversations/${session.conversationId}`)).json().data;
      expect(detail.visitor).toMatchObject({ first_page_url: `${SITE_ORIGIN}/products/1`, last_page_url: `${SITE_ORIGIN}/sizes`, user_agent: "lightMyRequest" });
    });

    it("happy: a conversation without lead, rating or coupon has nulls; only its latest 100 messages come, oldest first", async () => {
      const session = await startSession(t.app, tenant.agentId);
      for (let index = 1; index <= 105; index += 1) {
        await insertMessage(t.services.db, { conversationId: session.conversationId, role: index % 2 ? "visitor" : "bot", content: `m${index}` });
      }
      const detail = (await get(ana, `/conversations/${session.conversationId}`)).json().data;
      expect(detail).toMatchObject({ satisfaction: null, coupon: null, visitor: { lead: null }, has_earlier_messages: true, seq: 105 });
      expect(detail.messages).toHaveLength(100);
      expect(detail.messages[0]).toMatchObject({ content: "m6", seq: 6 });
      expect(detail.messages[99]).toMatchObject({ content: "m105", seq: 105 });
    });

    it("error: another workspace's id and an unknown id are 404; a malformed id is 422; without a session 401", async () => {
      const session = await conversationWith("detail");
      for (const [operator, id] of [[eve, session.conversationId], [ana, "cnv_doesnotexist"]] as const) {
        for (const path of [`/conversations/${id}`, `/conversations/${id}/messages?after_seq=0`]) {
          const response = await get(operator, path);
          expect(response.statusCode, path).toBe(404);
          expect(response.json().error.code).toBe("conversation_not_found");
        }
      }
      expect((await get(ana, `/conversations/${"x".repeat(65)}`)).statusCode).toBe(422);
      expect((await get(ana, "/conversations/bad%20id")).statusCode).toBe(422);
      for (const path of ["/conversations", `/conversations/${session.conversationId}`, `/conversations/${session.conversationId}/messages`]) {
        const response = await get(null, path);
        expect(response.statusCode, path).toBe(401);
        expect(response.json().error.code).toBe("unauthenticated");
      }
      expect((await post(null, `/conversations/${session.conversationId}/read`)).statusCode).toBe(401);
    });
  });

  describe("GET /conversations/{id}/messages?after_seq=N", () => {
    it("happy: everything above N in seq order with the conversation's state; has_more pages it", async () => {
      const session = await startSession(t.app, tenant.agentId);
      for (let index = 1; index <= 5; index += 1) {
        await insertMessage(t.services.db, { conversationId: session.conversationId, role: "visitor", content: `q${index}` });
      }
      const response = await get(ana, `/conversations/${session.conversationId}/messages?after_seq=2`);
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data;
      expect(data.messages.map((message: ConsoleMessage) => [message.seq, message.content])).toEqual([[3, "q3"], [4, "q4"], [5, "q5"]]);
      expect(data).toMatchObject({ has_more: false, conversation: { status: "bot", assignee: null, seq: 5, updated_seq: null } });

      const paged = (await get(ana, `/conversations/${session.conversationId}/messages?limit=2`)).json().data;
      expect(paged.messages.map((message: ConsoleMessage) => message.seq)).toEqual([1, 2]);
      expect(paged.has_more).toBe(true);
      expect((await get(ana, `/conversations/${session.conversationId}/messages?after_seq=5`)).json().data.messages).toEqual([]);
    });

    it("happy: catching up while messages are stored concurrently never skips one (gapless)", async () => {
      const session = await startSession(t.app, tenant.agentId);
      const writers = Array.from({ length: 40 }, (_, index) =>
        insertMessage(t.services.db, { conversationId: session.conversationId, role: index % 3 ? "visitor" : "bot", content: `c${index}` }),
      );
      const received: number[] = [];
      let afterSeq = 0;
      const catchUp = async () => {
        for (;;) {
          const response = await get(ana, `/conversations/${session.conversationId}/messages?after_seq=${afterSeq}&limit=7`);
          expect(response.statusCode).toBe(200);
          const data = response.json().data as { messages: ConsoleMessage[]; has_more: boolean };
          for (const message of data.messages) received.push(message.seq!);
          if (data.messages.length > 0) afterSeq = data.messages.at(-1)!.seq!;
          if (!data.has_more) return;
        }
      };
      let writing = true;
      const done = Promise.all(writers).finally(() => {
        writing = false;
      });
      while (writing) await catchUp();
      await done;
      await catchUp();
      const stored = (
        await t.services.db.query<{ seq: number }>(`SELECT conversation_seq AS seq FROM messages WHERE conversation_id = $1 ORDER BY conversation_seq`, [session.conversationId])
      ).rows.map((row) => row.seq);
      expect(stored).toHaveLength(40);
      expect(received).toEqual(stored);
    });

    it("error: a bad after_seq or limit is 422 naming it", async () => {
      const session = await conversationWith("seq");
      for (const [query, field] of [
        ["after_seq=-1", "querystring.after_seq"],
        ["after_seq=abc", "querystring.after_seq"],
        ["after_seq=1.5", "querystring.after_seq"],
        ["after_seq=", "querystring.after_seq"],
        ["after_seq=99999999999", "querystring.after_seq"],
        ["after_seq=2147483648", "querystring.after_seq"],
        ["limit=0", "querystring.limit"],
        ["limit=501", "querystring.limit"],
      ] as const) {
        const response = await get(ana, `/conversations/${session.conversationId}/messages?${query}`);
        expect(response.statusCode, query).toBe(422);
        expect(Object.keys(response.json().error.fields ?? {}), query).toContain(field);
      }
    });
  });
});
