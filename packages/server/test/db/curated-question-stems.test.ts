import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { insertCuratedAnswer, listCuratedQuestionCandidates, updateCuratedAnswer } from "../../src/console/curated/curated-answer-repository.js";
import { CURATED_ANSWER_THRESHOLD, findCuratedAnswer } from "../../src/console/curated/find-curated-answer.js";
import { contentStems, normaliseQuestion, questionSimilarity } from "../../src/console/curated/question-similarity.js";
import { CURATED_QUESTION_STEMS_BACKFILL } from "../../src/db/migrations/0014-curated-question-stems.js";
import { seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

interface EvalQuestion {
  question: string;
  expected?: string;
}
const readEval = async (path: string) => JSON.parse(await readFile(new URL(`../../../../eval/${path}`, import.meta.url), "utf8")) as EvalQuestion[];

/** Words at the edges of the stemmer: suffixes that leave 2 or 3 characters, accents, digits, characters above U+FFFF. */
const EDGE_QUESTIONS = [
  "sing things rings singing kings",
  "flies dies tries cried copied applies studies",
  "bed red used fed speed wed",
  "yes goes does uses buses",
  "fly only early really ugly",
  "is as us bus gas his its",
  "Crème brûlée délivrée à Zürich?",
  "2024 orders 3ds 10s",
  "𠀀𠀀ing 𠀀ing 𠀀𠀀s",
  "hi",
  "",
  "please thanks hello",
];

/**
 * Migration 0014: the stored content stems of curated questions and the SQL pre-filter of the
 * answering path's lookup. The backfill computes in SQL what the service computes in JavaScript,
 * and the lookup through the pre-filter picks what comparing with every curated question picked.
 */
describeEachStore("curated questions' stems (migration 0014) on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let fixtures: EvalQuestion[];
  let unanswerable: EvalQuestion[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services);
    fixtures = await readEval("fixtures/questions.json");
    unanswerable = await readEval("fixtures/unanswerable.json");
  });
  afterAll(() => t.close());

  it("happy: the migration's backfill stores the stems the service computes, for every eval question and the stemmer's edge cases", async () => {
    const other = await seedTenant(t.services);
    const { db } = t.services;
    const questions = [...fixtures, ...unanswerable].map((entry) => entry.question).concat(EDGE_QUESTIONS);
    await db.query(`ALTER TABLE curated_answers ALTER COLUMN question_stems DROP NOT NULL`);
    try {
      for (const [index, question] of questions.entries()) {
        await db.query(`INSERT INTO curated_answers (id, workspace_id, agent_id, question, question_normalised, answer) VALUES ($1, $2, $3, $4, $5, 'a')`, [
          `cur_backfill_${index}`,
          other.workspaceId,
          other.agentId,
          question,
          normaliseQuestion(question),
        ]);
      }
      await db.query(CURATED_QUESTION_STEMS_BACKFILL);
    } finally {
      await db.query(`ALTER TABLE curated_answers ALTER COLUMN question_stems SET NOT NULL`);
    }
    const { rows } = await db.query<{ question: string; question_stems: string[] }>(
      `SELECT question, question_stems FROM curated_answers WHERE agent_id = $1 ORDER BY id`,
      [other.agentId],
    );
    expect(rows).toHaveLength(questions.length);
    for (const row of rows) expect([...row.question_stems].sort(), row.question).toEqual([...contentStems(normaliseQuestion(row.question))].sort());
    // The edge cases meant something: stems cut, kept, and counted in UTF-16 as JavaScript does.
    const stemsOf = (question: string) => rows.find((row) => row.question === question)?.question_stems.sort();
    expect(stemsOf("sing things rings singing kings")).toEqual(["king", "ring", "sing", "thing"]);
    expect(stemsOf("𠀀𠀀ing 𠀀ing 𠀀𠀀s")).toEqual(["𠀀ing", "𠀀𠀀"]);
    expect(stemsOf("hi")).toEqual([]);
  });

  it("happy: through the pre-filter the lookup finds what comparing with every curated question finds, on the eval's questions", async () => {
    // One curated question per document (the eval's setting, eval/curated-threshold.mjs), plus rewordings of a few.
    const curatedQuestions = new Map<string, string>();
    for (const entry of fixtures) if (entry.expected && !curatedQuestions.has(entry.expected)) curatedQuestions.set(entry.expected, entry.question);
    const stored: { id: string; normalised: string }[] = [];
    for (const question of [...curatedQuestions.values(), "hi", "Delivery to Scotland?", "How long does delivery to Scotland take?"]) {
      const curated = await insertCuratedAnswer(t.services.db, { workspaceId: tenant.workspaceId, agentId: tenant.agentId, question, answer: `answer to ${question}`, sourceUrl: null, createdBy: null });
      stored.unshift({ id: curated.id, normalised: curated.questionNormalised });
    }
    // Everything compared, newest first, the first best kept: what the answering path did before 0014.
    const compareAll = (question: string) => {
      const normalised = normaliseQuestion(question);
      if (normalised === "") return null;
      let best: { id: string; similarity: number } | null = null;
      for (const candidate of stored) {
        const similarity = questionSimilarity(candidate.normalised, normalised);
        if (similarity >= CURATED_ANSWER_THRESHOLD && (best === null || similarity > best.similarity)) best = { id: candidate.id, similarity };
      }
      return best;
    };
    const asked = [...fixtures, ...unanswerable].map((entry) => entry.question).concat(["hi", "HI!", "hello", "delivery scotland", "how long is delivery to scotland"]);
    let matched = 0;
    for (const question of asked) {
      const found = await findCuratedAnswer(t.services.db, { workspaceId: tenant.workspaceId, agentId: tenant.agentId, question });
      const expected = compareAll(question);
      expect(found === null ? null : { id: found.curated.id, similarity: found.similarity }, question).toEqual(expected);
      if (expected) matched += 1;
    }
    expect(matched).toBeGreaterThan(curatedQuestions.size);

    // And it reads only the candidates: those sharing a stem with the question.
    const question = normaliseQuestion("How long does delivery to Scotland take?");
    const stems = [...contentStems(question)];
    const candidates = await listCuratedQuestionCandidates(t.services.db, { workspaceId: tenant.workspaceId, agentId: tenant.agentId, normalised: question, stems }, 1000);
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.length).toBeLessThan(stored.length / 2);
    for (const candidate of candidates) expect([...contentStems(candidate.questionNormalised)].some((stem) => stems.includes(stem))).toBe(true);
    // Another workspace asking about the same agent finds nothing.
    expect(await findCuratedAnswer(t.services.db, { workspaceId: "ws_someone_else", agentId: tenant.agentId, question: "How long does delivery to Scotland take?" })).toBeNull();
  });

  it("happy: a changed question's stems follow it", async () => {
    const { db } = t.services;
    const curated = await insertCuratedAnswer(db, { workspaceId: tenant.workspaceId, agentId: tenant.agentId, question: "Do you repair tandems?", answer: "Yes.", sourceUrl: null, createdBy: null });
    await updateCuratedAnswer(db, tenant.workspaceId, curated.id, { question: "Can you fix a unicycle?" });
    const { rows } = await db.query<{ question_stems: string[] }>(`SELECT question_stems FROM curated_answers WHERE id = $1`, [curated.id]);
    expect(rows[0]?.question_stems.sort()).toEqual(["fix", "unicycle"]);
    expect((await findCuratedAnswer(db, { workspaceId: tenant.workspaceId, agentId: tenant.agentId, question: "fix my unicycle" }))?.curated.id).toBe(curated.id);
    expect(await findCuratedAnswer(db, { workspaceId: tenant.workspaceId, agentId: tenant.agentId, question: "repair tandems" })).toBeNull();
  });
});
