import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { detectLanguage } from "../../src/language/detect-language.js";
import { documentIdOf, pushKnowledge } from "../support/knowledge.js";
import { adminOf, bearer, SITE_ORIGIN, startSession } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";

const W = "/api/v1/widget";

/**
 * A question is stemmed like the knowledge it is matched against: with the agent's text-search
 * configuration (its language), not the question's own language, or its words would never meet
 * the knowledge's lexemes.
 */
describe("the question is stemmed in the language of the agent's knowledge", () => {
  let t: TestApp;
  let agentId: string;
  let returnsDocument: number;

  beforeAll(async () => {
    t = await createTestApp("pglite", { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000" }, { workers: { allowPrivateNetworks: true } });
    const admin = adminOf(t.services);
    const workspace = (await runAdminCommand(admin, { command: "workspace.create", name: "Radladen" })) as { id: string };
    const agent = (await runAdminCommand(admin, { command: "agent.create", workspaceId: workspace.id, name: "Radladen", origins: [SITE_ORIGIN], language: "de" })) as { id: string };
    agentId = agent.id;
    const [returns] = await pushKnowledge(t, workspace.id, agentId, [
      {
        title: "Rücksendungen",
        source_url: "https://radladen.example/hilfe/ruecksendungen",
        content: "Rücksendungen sind innerhalb von 30 Tagen nach der Lieferung kostenlos. Das Rücksendeetikett finden Sie in Ihrem Kundenkonto.",
      },
      {
        title: "Öffnungszeiten",
        source_url: "https://radladen.example/hilfe/oeffnungszeiten",
        content: "Unser Laden in Köln ist von Montag bis Samstag von 10 bis 19 Uhr geöffnet. An Feiertagen bleibt er geschlossen.",
      },
    ]);
    returnsDocument = await documentIdOf(t, returns!);
  });
  afterAll(() => t.close());

  const ask = async (message: string): Promise<{ content: string; citations: { id: number }[]; low_confidence: boolean }> => {
    const session = await startSession(t.app, agentId);
    const response = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message } });
    expect(response.statusCode).toBe(200);
    return response.json().data;
  };

  it("happy: 'Rücksendung' in the question meets 'Rücksendungen' in the knowledge, both stemmed as German", async () => {
    const data = await ask("Rücksendung kostenlos?");
    expect(data.low_confidence).toBe(false);
    expect(data.citations[0]).toMatchObject({ id: returnsDocument });
    expect(data.content).toContain("innerhalb von 30 Tagen");
  });

  it("happy: a question in another language is still stemmed as German; its own language only decides the reply's (here the honest 'doubtful' one, in English)", async () => {
    const question = "How long do I have for a Rücksendung?";
    expect(detectLanguage(question, "de")).toBe("en");
    const data = await ask(question);
    expect(data).toMatchObject({ low_confidence: true });
    // The page it may be is offered by name, not quoted as an answer.
    expect(data.content).toMatch(/^(?:This page|These pages) may help: .+\nI'm not sure this answers your question\. Would you like me to connect you with a person\?$/);
    expect(data.citations[0]).toMatchObject({ id: returnsDocument }); // the page it may be, linked
  });

  it("happy: when an agent's language changes, its knowledge is stemmed again in the new one, so questions in that language meet it", async () => {
    const admin = adminOf(t.services);
    const workspace = (await runAdminCommand(admin, { command: "workspace.create", name: "Zweitladen" })) as { id: string };
    const agent = (await runAdminCommand(admin, { command: "agent.create", workspaceId: workspace.id, name: "Zweitladen", origins: [SITE_ORIGIN] })) as { id: string };
    const [returns] = await pushKnowledge(t, workspace.id, agent.id, [
      {
        title: "Rücksendungen",
        source_url: "https://zweitladen.example/hilfe/ruecksendungen",
        content: "Rücksendungen sind innerhalb von 30 Tagen nach der Lieferung kostenlos. Das Rücksendeetikett finden Sie in Ihrem Kundenkonto.",
      },
    ]);
    const askAgent = async (message: string) => {
      const session = await startSession(t.app, agent.id);
      const response = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message } });
      expect(response.statusCode).toBe(200);
      return response.json().data as { content: string; citations: { id: number }[]; low_confidence: boolean };
    };
    // Indexed as English (the agent's language then), the knowledge does not hold German's stem of "Rücksendung".
    const matchesGermanStem = async () =>
      (
        await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM chunks WHERE agent_id = $1 AND search_vector @@ plainto_tsquery('german', 'Rücksendung')`, [agent.id])
      ).rows[0]!.n;
    expect(await matchesGermanStem()).toBe(0);
    await runAdminCommand(admin, { command: "agent.update", agentId: agent.id, language: "de" });
    expect(await matchesGermanStem()).toBe(1);
    const answered = await askAgent("Rücksendung kostenlos?");
    expect(answered.low_confidence).toBe(false);
    expect(answered.citations[0]).toMatchObject({ id: await documentIdOf(t, returns!) });
    expect(answered.content).toContain("innerhalb von 30 Tagen");
  });

  it("happy: the lexemes Postgres makes of the word differ by configuration, which is what the test above relies on", async () => {
    const { rows } = await t.services.db.query<{ german: string; english: string; knowledge: string }>(
      `SELECT array_to_string(tsvector_to_array(to_tsvector('german', 'Rücksendung')), ' ') AS german,
              array_to_string(tsvector_to_array(to_tsvector('english', 'Rücksendung')), ' ') AS english,
              array_to_string(tsvector_to_array(to_tsvector('german', 'Rücksendungen')), ' ') AS knowledge`,
    );
    expect(rows[0]!.german).toBe(rows[0]!.knowledge);
    expect(rows[0]!.english).not.toBe(rows[0]!.knowledge);
  });
});
