import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { CURATED_ANSWER_THRESHOLD } from "../../src/console/curated/find-curated-answer.js";
import { groupSimilarQuestions, type QuestionGroup } from "../../src/console/curated/group-similar-questions.js";
import { contentStems, normaliseQuestion, stemSimilarity } from "../../src/console/curated/question-similarity.js";

const readQuestions = async (path: string) =>
  (JSON.parse(await readFile(new URL(`../../../../eval/${path}`, import.meta.url), "utf8")) as { question: string }[]).map((entry) => entry.question);

/** The knowledge gaps' grouping as it was written first: every question compared with every group (questionSimilarity, its stems computed once). */
function groupByComparingAll(asked: { question: string; askedAt: string }[]): QuestionGroup[] {
  const groups: QuestionGroup[] = [];
  const stemsOf = new Map<string, Set<string>>();
  const stems = (normalised: string) => stemsOf.get(normalised) ?? stemsOf.set(normalised, contentStems(normalised)).get(normalised)!;
  for (const { question, askedAt } of asked) {
    const normalised = normaliseQuestion(question);
    const group = groups.find(
      (candidate) =>
        candidate.representative === normalised ||
        stemSimilarity(stems(candidate.representative), stems(normalised), candidate.representative, normalised) >= CURATED_ANSWER_THRESHOLD,
    );
    if (group) {
      group.count += 1;
      if (group.questions.length < 5 && !group.questions.includes(normalised)) group.questions.push(normalised);
    } else {
      groups.push({ representative: normalised, question, count: 1, lastAskedAt: askedAt, questions: [normalised] });
    }
  }
  return groups;
}

/** A deterministic shuffle (a linear congruential generator). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let index = copy.length - 1; index > 0; index -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

it("happy: grouping through the stem index gives the groups of comparing each question with every group, on 800 eval questions with repeats, in two orders", async () => {
  const questions = [
    ...(await readQuestions("fixtures/questions.json")),
    ...(await readQuestions("fixtures/unanswerable.json")),
    ...(await readQuestions("govuk/questions.json")),
    ...(await readQuestions("govuk/unanswerable.json")),
    "hi",
    "Hi!",
    "hello",
    "",
  ];
  for (const seed of [1, 2]) {
    const order = shuffled(questions, seed);
    const asked = Array.from({ length: 800 }, (_, index) => ({ question: order[(index * 7) % order.length]!, askedAt: new Date(2_000_000_000_000 - index * 1000).toISOString() }));
    const expected = groupByComparingAll(asked);
    const grouped = await groupSimilarQuestions(asked, { threshold: CURATED_ANSWER_THRESHOLD, examples: 5 });
    expect(grouped).toEqual(expected);
    expect(grouped.length).toBeLessThan(asked.length);
  }
});

it("happy: a long grouping yields to the event loop between its slices", async () => {
  // Every question shares two stems with every group: each is scored against all of them.
  const asked = Array.from({ length: 3000 }, (_, index) => ({ question: `question number ${index} about topic${index % 300}`, askedAt: new Date(0).toISOString() }));
  let ranMeanwhile = false;
  setImmediate(() => {
    ranMeanwhile = true;
  });
  let finishedBeforeIt = false;
  const grouping = groupSimilarQuestions(asked, { threshold: CURATED_ANSWER_THRESHOLD, examples: 5 }).then((groups) => {
    finishedBeforeIt = !ranMeanwhile;
    return groups;
  });
  expect((await grouping).length).toBe(300);
  expect(finishedBeforeIt).toBe(false);
});
