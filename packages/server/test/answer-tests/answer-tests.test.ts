import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachStore } from "../support/test-database.js";
import { policyParagraphs, startAnswerTestWorld, waitFor, type AnswerTestWorld } from "./answer-test-world.js";

const QUESTION_PERIOD = "How many days do I have to return an unused item for a refund?";
const QUESTION_PAGE = "Where do I print a return label for my order?";
const QUESTION_UNKNOWN = "Zorblat quixotic vexillology?";

describeEachStore("answer tests on %s", (kind) => {
  let world: AnswerTestWorld;
  let agentId: string;
  let sourceId: string;
  const tests: Record<string, string> = {};

  beforeAll(async () => {
    world = await startAnswerTestWorld(kind);
    agentId = world.cast.tenant.agentId;
    const added = await world.call("POST", "/knowledge/sources", { agent_id: agentId, kind: "url", url: world.site.url("/returns-policy") });
    expect(added.statusCode, added.body).toBe(201);
    sourceId = added.json().data.id;
    await waitFor(async () => (await world.call("GET", `/knowledge/sources/${sourceId}`)).json().data.status === "indexed", 60_000);
    const hook = await world.call("POST", "/webhooks", { url: world.receiver.on("/hooks", (response) => response.end("ok")), events: ["answer_tests.regressed"] });
    expect(hook.statusCode, hook.body).toBe(201);
  }, 180_000);
  afterAll(() => world.close());

  it("happy: tests created in the console pass on demand, each with its reason, and the pass rate is listed per run", async () => {
    for (const [name, body] of [
      ["period", { agent_id: agentId, question: QUESTION_PERIOD, expect_text: "within 30 days" }],
      ["page", { agent_id: agentId, question: QUESTION_PAGE, expect_url: "/returns-policy" }],
      ["unknown", { agent_id: agentId, question: QUESTION_UNKNOWN, expect_unsure: true }],
    ] as const) {
      const created = await world.call("POST", "/answer-tests", body);
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data).toMatchObject({ agent_id: agentId, origin: "console", last_result: null });
      tests[name] = created.json().data.id;
    }
    const started = await world.call("POST", "/answer-tests/runs", { agent_id: agentId });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().data).toMatchObject({ status: "queued", trigger: "manual", pass_rate: null });
    const run = await world.finished(started.json().data.id);
    const reasons = Object.fromEntries(run.results.map((result) => [result.test_id, result]));
    expect(reasons[tests.period!], reasons[tests.period!]?.answer).toMatchObject({ passed: true, reason: "contained 'within 30 days'", regressed: false });
    expect(reasons[tests.page!]).toMatchObject({ passed: true, reason: "cited /returns-policy" });
    expect(reasons[tests.unknown!]).toMatchObject({ passed: true, reason: "said it was unsure" });
    expect(run).toMatchObject({ status: "done", total: 3, passed: 3, failed: 0, regressed: 0, pass_rate: 1 });

    const listed = (await world.call("GET", `/answer-tests?agent_id=${agentId}`)).json().data;
    expect(listed.map((test: { last_result: { passed: boolean } | null }) => test.last_result?.passed)).toEqual([true, true, true]);
    const runs = await world.call("GET", `/answer-tests/runs?agent_id=${agentId}`, undefined, world.cast.agentOperator.headers);
    expect(runs.statusCode, runs.body).toBe(200);
    expect(runs.json().data[0]).toMatchObject({ id: run.id, pass_rate: 1 });
  }, 120_000);

  it("happy: a re-sync whose page changed runs the tests by itself; the test that passed and fails now alerts the admins by mail, inbox and webhook", async () => {
    world.site.policyVersion = 2;
    const before = (await world.call("GET", `/answer-tests/runs?agent_id=${agentId}`)).json().data.length;
    const resynced = await world.call("POST", `/knowledge/sources/${sourceId}/resync`);
    expect(resynced.statusCode, resynced.body).toBe(202);
    let runs: { id: string; trigger: string; status: string }[] = [];
    await expect
      .poll(
        async () => {
          runs = (await world.call("GET", `/answer-tests/runs?agent_id=${agentId}`)).json().data;
          return runs.length > before && ["done", "failed"].includes(runs[0]!.status);
        },
        { timeout: 90_000, interval: 300 },
      )
      .toBe(true);
    expect(runs[0]!.trigger).toBe("knowledge");
    const run = await world.finished(runs[0]!.id);
    const period = run.results.find((result) => result.test_id === tests.period)!;
    expect(period, period.answer).toMatchObject({ passed: false, reason: "did not contain 'within 30 days'", regressed: true });
    expect(period.answer).toContain(policyParagraphs(2)[0]!.slice(0, 40));
    expect(run).toMatchObject({ regressed: 1, failed: 1, passed: 2 });
    expect(run.pass_rate).toBeCloseTo(2 / 3, 3);

    const mail = await world.smtp.mailTo(world.cast.admin.operator.email, 60_000);
    expect(mail.parsed.subject).toBe("An answer test of Acme Assistant fails now");
    expect(mail.parsed.text).toContain(QUESTION_PERIOD);
    expect(mail.parsed.text).toContain("did not contain 'within 30 days'");
    expect(mail.parsed.text).toContain(`/console/answer-tests?agent=${agentId}`);
    expect(world.smtp.mails.some((received) => received.envelope.to.includes(world.cast.agentOperator.operator.email))).toBe(false);

    const inbox = (await world.call("GET", "/notifications")).json().data;
    expect(inbox).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "answer_tests.regressed", conversation_id: null, payload: expect.objectContaining({ run_id: run.id, regressed: 1 }) })]));
    const agentInbox = (await world.call("GET", "/notifications", undefined, world.cast.agentOperator.headers)).json().data;
    expect(agentInbox.filter((notification: { kind: string }) => notification.kind === "answer_tests.regressed")).toEqual([]);

    await expect.poll(() => world.receiver.at("/hooks").length, { timeout: 60_000 }).toBe(1);
    const delivery = JSON.parse(world.receiver.at("/hooks")[0]!.body);
    expect(delivery).toMatchObject({
      type: "answer_tests.regressed",
      data: { agent_id: agentId, run_id: run.id, tests: [{ id: tests.period, question: QUESTION_PERIOD, reason: "did not contain 'within 30 days'" }] },
    });

    // Failing again is no news: the next run alerts nobody.
    const again = await world.call("POST", "/answer-tests/runs", { agent_id: agentId });
    const second = await world.finished(again.json().data.id);
    expect(second).toMatchObject({ regressed: 0, failed: 1 });
    expect(second.results.find((result) => result.test_id === tests.period)).toMatchObject({ passed: false, regressed: false });
  }, 180_000);

  describe("errors", () => {
    it("error: bad tests are 422 with the field named; another workspace's agent, test or run is 404; an agent-role operator may not write", async () => {
      const bad = [
        [{ agent_id: agentId, question: "Q?" }, "expect_url"],
        [{ agent_id: agentId, question: "Q?", expect_text: "a", expect_unsure: true }, "expect_url"],
        [{ agent_id: agentId, question: "Q?", expect_url: "ftp://x.test/a" }, "expect_url"],
        [{ agent_id: agentId, question: "Q?", expect_url: "returns" }, "expect_url"],
        [{ agent_id: agentId, question: "   ", expect_text: "a" }, "question"],
        [{ agent_id: agentId, question: "Q?", expect_text: "x".repeat(501) }, "expect_text"],
        [{ question: "Q?", expect_text: "a" }, "agent_id"],
        [{ agent_id: agentId, question: "Q?", expect_unsure: false }, "expect_unsure"],
      ] as const;
      for (const [body, field] of bad) {
        const response = await world.call("POST", "/answer-tests", body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(response.json().error).toMatchObject({ code: "validation_failed", fields: { [field]: expect.any(Array) } });
      }
      const otherAgent = world.cast.other.agentId;
      const foreign = await world.call("POST", "/answer-tests", { agent_id: otherAgent, question: "Q?", expect_text: "a" });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.code).toBe("agent_not_found");
      for (const [method, path, payload] of [
        ["GET", `/answer-tests?agent_id=${otherAgent}`, undefined],
        ["GET", `/answer-tests/runs?agent_id=${otherAgent}`, undefined],
        ["POST", "/answer-tests/runs", { agent_id: otherAgent }],
        ["POST", "/answer-tests/import", { agent_id: otherAgent, csv: "question,expect_url,expect_text,expect_unsure\nQ?,,a,\n" }],
      ] as const) {
        const response = await world.call(method, path, payload);
        expect(response.statusCode, path).toBe(404);
        expect(response.json().error.code).toBe("agent_not_found");
      }
      const run = (await world.call("GET", `/answer-tests/runs?agent_id=${agentId}`)).json().data[0].id;
      expect((await world.call("GET", `/answer-tests/runs/${run}`, undefined, world.cast.outsider.headers)).json().error.code).toBe("not_found");
      expect((await world.call("DELETE", `/answer-tests/${tests.page}`, undefined, world.cast.outsider.headers)).statusCode).toBe(404);
      expect((await world.call("DELETE", "/answer-tests/ant_unknown")).json().error.code).toBe("not_found");
      expect((await world.call("GET", "/answer-tests/runs/bad id!")).statusCode).toBe(422);

      const asAgent = await world.call("POST", "/answer-tests", { agent_id: agentId, question: "Q?", expect_text: "a" }, world.cast.agentOperator.headers);
      expect(asAgent.statusCode).toBe(403);
      expect(asAgent.json().error.code).toBe("forbidden");
      expect((await world.call("POST", "/answer-tests/runs", { agent_id: agentId }, world.cast.agentOperator.headers)).statusCode).toBe(403);

      const none = await world.call("POST", "/answer-tests/runs", { agent_id: otherAgent }, world.cast.outsider.headers);
      expect(none.statusCode).toBe(422);
      expect(none.json().error).toMatchObject({ code: "validation_failed", fields: { agent_id: ["has no answer tests"] } });
    });
  });
});
