import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { bearer, SITE_ORIGIN, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { firstLanguageOf, storableTimeZone } from "../../src/widget/start-session.js";
import { readBrowser } from "../../src/console/visitor-profile/read-browser.js";

const W = "/api/v1/widget";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

describeEachStore("the visitor's history and profile on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000", FRONTDESK_RATE_LIMIT_SATISFACTION_PER_MINUTE: "1000" });
    ({ tenant, other, agentOperator, outsider } = await seedConsoleCast(t));
  }, 120_000);
  afterAll(() => t.close());

  const init = async (agentId: string, body: Record<string, unknown>, headers: Record<string, string>) => {
    const response = await t.app.inject({
      method: "POST",
      url: `${W}/init`,
      headers: { origin: SITE_ORIGIN, ...headers },
      payload: { agent_id: agentId, page_url: `${SITE_ORIGIN}/tents`, ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    return { jwt: data.jwt as string, conversationId: data.conversation_id as string, visitorId: data.visitor_id as string, anonymousId: data.anonymous_id as string };
  };
  const post = async (jwt: string, path: string, payload: Record<string, unknown>) => {
    const response = await t.app.inject({ method: "POST", url: `${W}${path}`, headers: bearer(jwt), payload });
    expect(response.statusCode, `${path}: ${response.body}`).toBeLessThan(300);
    return response.json().data;
  };
  const profileOf = (session: ConsoleSession, conversationId: string) => t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${conversationId}/visitor`, headers: session.headers });

  it("happy: earlier conversations, leads, ratings, this conversation's pages, local time zone, language and a readable browser", async () => {
    const headers = { "user-agent": FIREFOX_WINDOWS, "accept-language": "fr-CH, fr;q=0.9, en;q=0.8" };
    const earlier = await init(tenant.agentId, { time_zone: "Europe/Zurich" }, headers);
    const asked = await post(earlier.jwt, "/messages", { message: "Is the Alpine 2 tent waterproof?" });
    await post(earlier.jwt, `/messages/${asked.message_id}/feedback`, { rating: "down", comment: "Did not answer" });
    await post(earlier.jwt, "/satisfaction", { rating: "bad", comment: "Slow" });
    await post(earlier.jwt, "/leads", { name: "Noor", email: "noor@example.com" });

    const current = await init(tenant.agentId, { anon_id: earlier.anonymousId, new_conversation: true, time_zone: "Europe/Zurich" }, headers);
    expect(current.visitorId).toBe(earlier.visitorId);
    await post(current.jwt, "/messages", { message: "The fly is torn", page_url: `${SITE_ORIGIN}/tents/alpine-2`, page_context: { title: "Alpine 2 tent" } });
    await post(current.jwt, "/messages", { message: "Here it is again", page_url: `${SITE_ORIGIN}/tents/alpine-2`, page_context: { title: "Alpine 2 tent" } });
    await post(current.jwt, "/messages", { message: "Can I return it?", page_url: `${SITE_ORIGIN}/returns` });

    const response = await profileOf(agentOperator, current.conversationId);
    expect(response.statusCode, response.body).toBe(200);
    const profile = response.json().data;
    expect(profile).toMatchObject({
      visitor_id: current.visitorId,
      time_zone: "Europe/Zurich",
      language: "fr-CH",
      browser: { name: "Firefox", version: "133", os: "Windows 10", device: "desktop", user_agent: FIREFOX_WINDOWS },
    });
    expect(profile.pages.map((page: { url: string; title: string | null }) => [page.url, page.title])).toEqual([
      [`${SITE_ORIGIN}/tents`, null],
      [`${SITE_ORIGIN}/tents/alpine-2`, "Alpine 2 tent"],
      [`${SITE_ORIGIN}/returns`, null],
    ]);
    expect(profile.conversations.map((row: { id: string; current: boolean }) => [row.id, row.current])).toEqual([
      [current.conversationId, true],
      [earlier.conversationId, false],
    ]);
    expect(profile.conversations[1].first_message).toBe("Is the Alpine 2 tent waterproof?");
    expect(profile.leads).toEqual([expect.objectContaining({ email: "noor@example.com", name: "Noor" })]);
    expect(profile.ratings.satisfaction).toEqual([expect.objectContaining({ conversation_id: earlier.conversationId, rating: "bad", comment: "Slow" })]);
    expect(profile.ratings.answers).toEqual([expect.objectContaining({ conversation_id: earlier.conversationId, rating: "down", comment: "Did not answer" })]);
  });

  it("happy: the user agent reads as browser, system and device; a time zone or language the service cannot read is left out", async () => {
    expect(readBrowser(SAFARI_IPHONE)).toMatchObject({ name: "Safari", version: "18", os: "iOS 18.1", device: "mobile" });
    expect(readBrowser("curl/8.5.0")).toMatchObject({ device: null, os: null });
    expect(readBrowser("")).toMatchObject({ name: null, version: null });
    expect(storableTimeZone("Not/AZone")).toBeNull();
    expect(storableTimeZone("America/New_York")).toBe("America/New_York");
    expect(firstLanguageOf("*")).toBeNull();
    expect(firstLanguageOf("de")).toBe("de");
    expect(firstLanguageOf(undefined)).toBeNull();
    const session = await init(tenant.agentId, { time_zone: "Not/AZone" }, { "accept-language": "<script>" });
    await post(session.jwt, "/messages", { message: "Hello" });
    const profile = (await profileOf(agentOperator, session.conversationId)).json().data;
    // A user agent that names no browser (the test client's) reads as nothing known, the header kept.
    expect(profile).toMatchObject({ time_zone: null, language: null, leads: [], ratings: { satisfaction: [], answers: [] } });
    expect(profile.browser).toEqual({ name: null, version: null, os: null, device: null, user_agent: "lightMyRequest" });
  });

  it("error: an unknown conversation is 404, a bad id 422; an oversized time zone is refused by init", async () => {
    const unknown = await profileOf(agentOperator, "cnv_nope");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe("conversation_not_found");
    expect((await profileOf(agentOperator, encodeURIComponent("bad id!"))).statusCode).toBe(422);
    const long = await t.app.inject({ method: "POST", url: `${W}/init`, headers: { origin: SITE_ORIGIN }, payload: { agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, time_zone: "x".repeat(101) } });
    expect(long.statusCode).toBe(422);
    expect(long.json().error.fields).toHaveProperty("time_zone");
  });

  it("security: another workspace's conversation and visitor are 404, and their history never shows in this workspace", async () => {
    const theirs = await startSession(t.app, other.agentId);
    await post(theirs.jwt, "/messages", { message: "Secret of the other shop" });
    const response = await profileOf(agentOperator, theirs.conversationId);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("conversation_not_found");
    expect(response.body).not.toContain("Secret");
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${theirs.conversationId}/visitor` })).statusCode).toBe(401);
    const own = await profileOf(outsider, theirs.conversationId);
    expect(own.statusCode).toBe(200);
    expect(own.json().data.conversations.map((row: { id: string }) => row.id)).toEqual([theirs.conversationId]);
  });
});
