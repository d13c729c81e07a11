import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import type { AnswerGenerator, AnswerRequest } from "../../src/answering/generate/answer-generator.js";
import type { Database, Queryable, QueryResult, SqlValue } from "../../src/db/database.js";
import { deleteCuratedAnswer, insertCuratedAnswer } from "../../src/console/curated/curated-answer-repository.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { bearer, SITE_ORIGIN, seedTenant, startSession, type StartedSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";

/** The real store, each statement it is sent written down first (transactions' too). */
function recordingStatements(db: Database, statements: string[]): Database {
  // A transaction keeps its after-commit hook (`...target`): only its statements are recorded.
  const recorded = <Target extends Queryable>(target: Target): Target => ({
    ...target,
    query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>> {
      statements.push(sql);
      return target.query<Row>(sql, params);
    },
  });
  const queries = recorded(db);
  return {
    kind: db.kind,
    query: (sql, params) => queries.query(sql, params),
    transaction: (work) => db.transaction((tx) => work(recorded(tx))),
    exec: (sql) => db.exec(sql),
    withAdvisoryLock: (key, work) => db.withAdvisoryLock(key, work),
    withAdvisoryLockIfFree: (key, work) => db.withAdvisoryLockIfFree(key, work),
    ping: () => db.ping(),
    close: () => db.close(),
  };
}

/**
 * What answering a visitor's message sends to the store: the message is stored first and its state
 * decides (outside `bot`, no history is read); the page the visitor is on takes one statement; the
 * bot's history is the turns before the question.
 */
describeEachStore("answering a message, statement by statement, on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let ana: ConsoleSession;
  let store: Database;
  let originalAnswers: AnswerGenerator;
  const requests: AnswerRequest[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000" });
    tenant = await seedTenant(t.services);
    ana = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
    store = t.services.db;
    originalAnswers = t.services.answers;
    t.services.answers = {
      id: "recording",
      async *generate(request) {
        requests.push(request);
        yield { type: "token", token: `Answer to ${request.question}` };
        yield { type: "done", citedDocumentIds: [], lowConfidence: false, judgement: "answered", generator: "recording" };
      },
    };
  });
  afterEach(() => {
    t.services.db = store;
  });
  afterAll(async () => {
    t.services.answers = originalAnswers;
    await t.close();
  });

  const ask = (session: StartedSession, payload: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload });
  /** Asks with every statement of the request recorded. */
  const askRecorded = async (session: StartedSession, payload: Record<string, unknown>) => {
    const statements: string[] = [];
    t.services.db = recordingStatements(store, statements);
    try {
      const response = await ask(session, payload);
      expect(response.statusCode, response.body).toBe(200);
      return { data: response.json().data as { awaiting_human: boolean; content: string }, statements };
    } finally {
      t.services.db = store;
    }
  };
  const readsOfMessages = (statements: string[]) => statements.filter((sql) => /\bFROM\s+messages\b/i.test(sql));
  const pageWrites = (statements: string[]) => statements.filter((sql) => /last_page_(url|context)/.test(sql));

  it("happy: while a human is requested or an operator handles it, the question is stored by one statement and nothing else is read", async () => {
    const waiting = await startSession(t.app, tenant.agentId);
    expect((await t.app.inject({ method: "POST", url: `${W}/request-human`, headers: bearer(waiting.jwt), payload: {} })).statusCode).toBe(200);
    const handled = await startSession(t.app, tenant.agentId);
    const assigned = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${handled.conversationId}/assign`, headers: ana.headers, payload: {} });
    expect(assigned.statusCode, assigned.body).toBe(200);
    for (const session of [waiting, handled]) {
      const { data, statements } = await askRecorded(session, { message: "Is anyone there?" });
      expect(data).toMatchObject({ awaiting_human: true, content: "" });
      expect(statements.length).toBeGreaterThan(0);
      // The statement storing the question is the only one on messages (its history read runs only in `bot`), and no retrieval runs.
      expect(readsOfMessages(statements)).toHaveLength(1);
      expect(readsOfMessages(statements)[0]).toMatch(/INSERT INTO messages/);
      expect(statements.filter((sql) => /\bchunks\b|curated_answers c|FROM curated_answers\s+WHERE question/i.test(sql))).toEqual([]);
      const { rows } = await store.query<{ role: string; content: string }>(
        `SELECT role, content FROM messages WHERE conversation_id = $1 AND role = 'visitor'`,
        [session.conversationId],
      );
      expect(rows).toEqual([{ role: "visitor", content: "Is anyone there?" }]);
    }
    expect(requests.filter((request) => request.question === "Is anyone there?")).toEqual([]);
  });

  it("happy: the page's URL and context are written by one statement, none without them; the console shows both", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const page = { page_url: `${SITE_ORIGIN}/bikes/x1`, page_context: { title: "E-bike X1", price: 1999 } };
    const withPage = await askRecorded(session, { message: "Does the X1 fold?", ...page });
    expect(pageWrites(withPage.statements)).toHaveLength(1);
    const { rows } = await store.query<{ last_page_url: string; last_page_context: unknown }>(
      `SELECT last_page_url, last_page_context FROM conversations WHERE id = $1`,
      [session.conversationId],
    );
    expect(rows).toEqual([{ last_page_url: page.page_url, last_page_context: page.page_context }]);

    expect(pageWrites((await askRecorded(session, { message: "And the X2?" })).statements)).toEqual([]);
    await askRecorded(session, { message: "Only the page this time", page_url: `${SITE_ORIGIN}/bikes/x2` });
    const detail = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${session.conversationId}`, headers: ana.headers });
    expect(detail.json().data.visitor.last_page_url).toBe(`${SITE_ORIGIN}/bikes/x2`);
    const kept = await store.query<{ last_page_context: unknown }>(`SELECT last_page_context FROM conversations WHERE id = $1`, [session.conversationId]);
    expect(kept.rows).toEqual([{ last_page_context: page.page_context }]);
  });

  it("happy: the bot's history is the last 8 messages before the question, oldest first, never the question itself", async () => {
    const session = await startSession(t.app, tenant.agentId);
    for (let turn = 1; turn <= 6; turn += 1) expect((await askRecorded(session, { message: `question ${turn}` })).data.content).toBe(`Answer to question ${turn}`);
    const first = requests.find((request) => request.question === "question 1");
    expect(first?.history).toEqual([]);
    const last = requests.find((request) => request.question === "question 6");
    expect(last?.history).toEqual(
      [2, 3, 4, 5].flatMap((turn) => [
        { role: "visitor", content: `question ${turn}` },
        { role: "bot", content: `Answer to question ${turn}` },
      ]),
    );
  });

  it("happy: a closed conversation is reopened by the message and the bot answers it, with the turns before it as history", async () => {
    const session = await startSession(t.app, tenant.agentId);
    await askRecorded(session, { message: "first question" });
    expect((await t.app.inject({ method: "POST", url: `${W}/conversation/close`, headers: bearer(session.jwt), payload: {} })).statusCode).toBe(200);
    const { data } = await askRecorded(session, { message: "back again" });
    expect(data.content).toBe("Answer to back again");
    expect(requests.find((request) => request.question === "back again")?.history).toEqual([
      { role: "visitor", content: "first question" },
      { role: "bot", content: "Answer to first question" },
    ]);
  });

  it("happy: curated answers are looked for only once the agent has one, and then answer at once", async () => {
    const curatedLookups = (statements: string[]) => statements.filter((sql) => /FROM curated_answers\s+WHERE question/i.test(sql));
    const session = await startSession(t.app, tenant.agentId);
    const before = await askRecorded(session, { message: "How long does delivery to Scotland take?" });
    expect(before.data.content).toBe("Answer to How long does delivery to Scotland take?");
    expect(curatedLookups(before.statements)).toEqual([]);

    const curated = await insertCuratedAnswer(store, {
      workspaceId: tenant.workspaceId,
      agentId: tenant.agentId,
      question: "How long does delivery to Scotland take?",
      answer: "Four working days.",
      sourceUrl: null,
      createdBy: null,
    });
    try {
      const after = await askRecorded(session, { message: "How long does delivery to Scotland take?" });
      expect(after.data.content).toBe("Four working days.");
      expect(curatedLookups(after.statements)).toHaveLength(1);
    } finally {
      await deleteCuratedAnswer(store, tenant.workspaceId, curated.id);
    }
  });
});
