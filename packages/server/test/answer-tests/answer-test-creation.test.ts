import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand, type AdminContext } from "../../src/admin/run-admin-command.js";
import { agentHasAnswerTests, deleteVisitorAnswerTests, listAgentAnswerTests } from "../../src/answer-tests/answer-test-repository.js";
import { claimQueuedRun, findRun, latestResultsOfAgent, listAgentRuns, listRunResults, previousOutcomes, queueRun } from "../../src/answer-tests/answer-test-run-repository.js";
import { plansOf, scansOf } from "../support/query-plans.js";
import { CONSOLE, seedConsoleCast } from "../support/console-session.js";
import { bikeShopKnowledge, pushKnowledge } from "../support/knowledge.js";
import { adminOf, bearer, startSession } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";
const HEADER = "question,expect_url,expect_text,expect_unsure";

describeEachStore("answer tests from curated answers, bot messages, CSV and the CLI on %s", (kind) => {
  let t: TestApp;
  let cast: Awaited<ReturnType<typeof seedConsoleCast>>;
  let agentId: string;

  beforeAll(async () => {
    // A change's run waits a minute for the rest of its burst: long enough to see the burst join one run.
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000", FRONTDESK_ANSWER_TESTS_DEBOUNCE_SECONDS: "60" }, { workers: { allowPrivateNetworks: true } });
    cast = await seedConsoleCast(t);
    agentId = cast.tenant.agentId;
    await pushKnowledge(t, cast.tenant.workspaceId, agentId, bikeShopKnowledge);
  }, 120_000);
  afterAll(() => t.close());

  const call = (method: "GET" | "POST" | "PATCH" | "DELETE", path: string, payload?: unknown, headers = cast.admin.headers) =>
    t.app.inject({ method, url: `${CONSOLE}${path}`, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const runJobsOf = async (agent: string) =>
    (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'run-answer-tests' AND data->>'agentId' = $1`, [agent])).rows[0]!.n;

  it("happy: from a curated answer (its question and page, or its first sentence); a burst of curated and model changes queues one run", async () => {
    const jobsBefore = await runJobsOf(agentId);
    const curated = await call("POST", "/curated-answers", { agent_id: agentId, question: "Do you deliver on Sundays?", answer: "No. We never deliver on Sundays.", source_url: "https://shop.example.com/help/delivery" });
    expect(curated.statusCode, curated.body).toBe(201);
    const fromPage = await call("POST", "/answer-tests", { curated_answer_id: curated.json().data.id });
    expect(fromPage.statusCode, fromPage.body).toBe(201);
    expect(fromPage.json().data).toMatchObject({ agent_id: agentId, question: "Do you deliver on Sundays?", expect_kind: "url", expect_value: "https://shop.example.com/help/delivery", origin: "curated" });
    const plain = await call("POST", "/curated-answers", { agent_id: agentId, question: "Can I pay by invoice?", answer: "Yes, for orders over 100 euros. Ask us for the form." });
    const fromText = await call("POST", "/answer-tests", { curated_answer_id: plain.json().data.id });
    expect(fromText.json().data).toMatchObject({ expect_kind: "text", expect_value: "Yes, for orders over 100 euros." });
    const chosen = await call("POST", "/answer-tests", { curated_answer_id: plain.json().data.id, expect_unsure: true });
    expect(chosen.json().data).toMatchObject({ expect_kind: "unsure", expect_value: null, question: "Can I pay by invoice?" });

    // A burst (the second curated answer, two edits and a model change) becomes one queued run with one job.
    await call("PATCH", `/curated-answers/${plain.json().data.id}`, { answer: "Yes, for orders over 150 euros." });
    await call("PATCH", `/curated-answers/${plain.json().data.id}`, { answer: "Yes, for orders over 200 euros." });
    await t.services.db.transaction((tx) => t.services.events.raise(tx, { type: "agent.answering.changed", workspaceId: cast.tenant.workspaceId, agentIds: [agentId, agentId], changedAt: new Date().toISOString() }));
    const runs = (await call("GET", `/answer-tests/runs?agent_id=${agentId}`)).json().data;
    expect(runs).toEqual([expect.objectContaining({ status: "queued", trigger: "curated" })]);
    expect((await runJobsOf(agentId)) - jobsBefore).toBe(1);
    // An agent without tests gets no run from a change.
    await t.services.db.transaction((tx) => t.services.events.raise(tx, { type: "agent.answering.changed", workspaceId: cast.other.workspaceId, agentIds: [cast.other.agentId], changedAt: new Date().toISOString() }));
    expect(await runJobsOf(cast.other.agentId)).toBe(0);
  });

  it("happy: from a bot reply, its visitor's question; erasing that visitor deletes the test. error: another workspace's message is 404", async () => {
    const session = await startSession(t.app, agentId);
    const asked = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message: "Do you ship bikes to Norway?" } });
    expect(asked.statusCode, asked.body).toBe(200);
    const { rows } = await t.services.db.query<{ id: string }>(`SELECT id FROM messages WHERE conversation_id = $1 AND role = 'bot'`, [session.conversationId]);
    const created = await call("POST", "/answer-tests", { message_id: rows[0]!.id, expect_unsure: true });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ agent_id: agentId, question: "Do you ship bikes to Norway?", origin: "message", expect_kind: "unsure" });

    expect((await call("POST", "/answer-tests", { message_id: rows[0]!.id, expect_unsure: true }, cast.outsider.headers)).json().error.code).toBe("not_found");
    expect((await call("POST", "/answer-tests", { message_id: "msg_unknown", expect_unsure: true })).statusCode).toBe(404);
    expect((await call("POST", "/answer-tests", { curated_answer_id: "cur_unknown" })).statusCode).toBe(404);
    const both = await call("POST", "/answer-tests", { message_id: rows[0]!.id, curated_answer_id: "cur_x", expect_unsure: true });
    expect(both.json().error).toMatchObject({ code: "validation_failed", fields: { message_id: expect.any(Array) } });
    const wrongAgent = await call("POST", "/answer-tests", { agent_id: cast.other.agentId, message_id: rows[0]!.id, expect_unsure: true });
    expect(wrongAgent.json().error).toMatchObject({ code: "validation_failed", fields: { agent_id: ["must be the agent of message_id"] } });

    const erased = await call("DELETE", `/visitors/${session.visitorId}`);
    expect(erased.statusCode, erased.body).toBe(204);
    const left = (await call("GET", `/answer-tests?agent_id=${agentId}`)).json().data;
    expect(left.map((test: { id: string }) => test.id)).not.toContain(created.json().data.id);
    expect(JSON.stringify(left)).not.toContain("Norway");
  });

  describe("CSV import", () => {
    it("happy: good rows are created, each bad row reported with its number and why", async () => {
      const csv = [
        HEADER,
        "How long does delivery take?,/help/delivery,,",
        '"Do you deliver on Sundays, or holidays?",,"do not deliver on Sundays",',
        "Can you help me file my tax return?,,,yes",
        ",/help/delivery,,",
        "What is your address?,,,",
        "Returns?,/help/returns,returns,",
        "Warranty?,not a url,,",
        "Open on Sunday?,,,maybe",
        "Too,many,fields,here,really",
        "",
      ].join("\r\n");
      const response = await call("POST", "/answer-tests/import", { agent_id: agentId, csv });
      expect(response.statusCode, response.body).toBe(201);
      const { created, errors } = response.json().data;
      expect(created.map((test: { question: string; expect_kind: string; origin: string }) => [test.question, test.expect_kind, test.origin])).toEqual([
        ["How long does delivery take?", "url", "csv"],
        ["Do you deliver on Sundays, or holidays?", "text", "csv"],
        ["Can you help me file my tax return?", "unsure", "csv"],
      ]);
      expect(errors).toEqual([
        { row: 5, message: "question: must not be empty" },
        { row: 6, message: "no expectation: give one of expect_url, expect_text and expect_unsure" },
        { row: 7, message: "more than one expectation: give only one of expect_url, expect_text and expect_unsure" },
        { row: 8, message: "expect_url: must be an absolute http(s) URL or a path starting with /" },
        { row: 9, message: "expect_unsure: must be true or false, not 'maybe'" },
        { row: 10, message: "has 5 fields; expected 4 (question,expect_url,expect_text,expect_unsure)" },
      ]);
    });

    it("error: no good row, another header, an unclosed quote or nothing under the header is 422 with each row's error", async () => {
      const none = await call("POST", "/answer-tests/import", { agent_id: agentId, csv: `${HEADER}\n,,,\nQ?,,,\n` });
      expect(none.statusCode).toBe(422);
      expect(none.json().error).toMatchObject({
        code: "validation_failed",
        fields: { "row 2": ["question: must not be empty"], "row 3": ["no expectation: give one of expect_url, expect_text and expect_unsure"] },
      });
      for (const [csv, message] of [
        ["q,url\nQ?,/a\n", "row 1: the header must be question,expect_url,expect_text,expect_unsure"],
        [`${HEADER}\n"Q?,,,\n`, "line 2: a quoted field is not closed"],
        [`${HEADER}\n`, "no rows after the header"],
      ] as const) {
        const response = await call("POST", "/answer-tests/import", { agent_id: agentId, csv });
        expect(response.statusCode, csv).toBe(422);
        expect(response.json().error).toMatchObject({ code: "validation_failed", fields: { csv: [message] } });
      }
      expect((await call("POST", "/answer-tests/import", { agent_id: agentId, csv: "" })).statusCode).toBe(422);
      expect((await call("POST", "/answer-tests/import", { agent_id: agentId, csv: `${HEADER}\nQ?,,a,\n` }, cast.agentOperator.headers)).statusCode).toBe(403);
    });
  });

  it("happy: every statement of the answer tests reads its rows through an index, scoped to the workspace", async () => {
    const scope = { workspaceId: cast.tenant.workspaceId, agentId };
    const runId = (await listAgentRuns(t.services.db, scope, 1))[0]?.id ?? "anr_none";
    const nodes = await plansOf(
      t.services.db,
      async (tx) => {
        await listAgentAnswerTests(tx, scope);
        await agentHasAnswerTests(tx, scope);
        await latestResultsOfAgent(tx, scope);
        await listAgentRuns(tx, scope, 100);
        await previousOutcomes(tx, scope);
        await findRun(tx, scope.workspaceId, runId);
        await listRunResults(tx, { id: runId, workspaceId: scope.workspaceId });
        await deleteVisitorAnswerTests(tx, scope.workspaceId, "vis_nobody");
        await queueRun(tx, { workspaceId: cast.other.workspaceId, agentId: cast.other.agentId, trigger: "knowledge" });
        await claimQueuedRun(tx, { workspaceId: cast.other.workspaceId, agentId: cast.other.agentId, staleBefore: new Date(0) });
      },
      ["SET LOCAL enable_seqscan = off"],
    );
    expect(scansOf(nodes, ["answer_tests", "answer_test_runs", "answer_test_results"])).toEqual([]);
  });

  describe("admin CLI, in process", () => {
    const context = (): AdminContext => ({ ...adminOf(t.services), answerTests: async () => ({ ...t.services, close: async () => undefined }) });

    it("happy: answer-test create and run print the test and {passed, failed, results}", async () => {
      const agent = cast.other.agentId;
      const made = (await runAdminCommand(context(), { command: "answer-test.create", agentId: agent, question: "How long does delivery take?", expectText: "three to five working days" })) as {
        id: string;
        origin: string;
      };
      expect(made).toMatchObject({ agent_id: agent, expect_kind: "text", origin: "cli" });
      const unsure = (await runAdminCommand(context(), { command: "answer-test.create", agentId: agent, question: "Zorblat quixotic vexillology?", expectUnsure: true })) as { id: string };
      const result = (await runAdminCommand(context(), { command: "answer-test.run", agentId: agent })) as Record<string, unknown>;
      // The other workspace's agent knows nothing: it is unsure of everything.
      expect(result).toMatchObject({
        passed: 1,
        failed: 1,
        results: [
          { id: made.id, question: "How long does delivery take?", passed: false, reason: "did not contain 'three to five working days'" },
          { id: unsure.id, question: "Zorblat quixotic vexillology?", passed: true, reason: "said it was unsure" },
        ],
      });
    }, 60_000);

    it("error: no expectation, two, a bad URL or an unknown agent are refused with our codes", async () => {
      const refused = async (input: Parameters<typeof runAdminCommand>[1]) => {
        try {
          await runAdminCommand(context(), input);
        } catch (error) {
          return error as { code: string; fields?: Record<string, string[]> };
        }
        throw new Error("not refused");
      };
      expect(await refused({ command: "answer-test.create", agentId, question: "Q?" })).toMatchObject({ code: "validation_failed", fields: { expect: expect.any(Array) } });
      expect(await refused({ command: "answer-test.create", agentId, question: "Q?", expectText: "a", expectUnsure: true })).toMatchObject({ code: "validation_failed" });
      expect(await refused({ command: "answer-test.create", agentId, question: "Q?", expectUrl: "javascript:alert(1)" })).toMatchObject({ code: "validation_failed", fields: { expectUrl: expect.any(Array) } });
      expect(await refused({ command: "answer-test.create", agentId: "agt_unknown", question: "Q?", expectUnsure: true })).toMatchObject({ code: "not_found" });
      expect(await refused({ command: "answer-test.run", agentId: "agt_unknown" })).toMatchObject({ code: "agent_not_found" });
    });
  });
});
