import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { contentStems, diceCoefficient, normaliseQuestion } from "./question-similarity.js";

export interface QuestionGroup {
  /** The group's first (most recent) question, normalised: what later questions are compared with. */
  representative: string;
  /** The representative as it was asked. */
  question: string;
  count: number;
  lastAskedAt: string;
  /** Distinct normalised questions of the group, most recent first (at most `examples`). */
  questions: string[];
}

/**
 * Work units (a question read, or one group scored) between two yields to the event loop: a few
 * milliseconds of work, so a request arriving meanwhile waits for no more.
 */
const WORK_PER_SLICE = 5000;

/**
 * Groups questions (most recent first) by similarity: each joins the first group, in the order
 * groups were started, whose representative has the same normalised text or a similarity at or
 * above `threshold`, else starts a group. The same result as comparing each question with every
 * group, but only the groups whose representative shares a content stem with it are scored (any
 * other scores 0): an index of stems counts the stems each has in common with it, which gives
 * the Dice coefficient (a representative with the same text has the same stems: 1). Questions
 * without content words go by their normalised text. Runs in slices, yielding to the event loop
 * between them.
 */
export async function groupSimilarQuestions(
  asked: readonly { question: string; askedAt: string }[],
  options: { threshold: number; examples: number },
): Promise<QuestionGroup[]> {
  const groups: (QuestionGroup & { stems: Set<string> })[] = [];
  const groupsByStem = new Map<string, number[]>();
  const groupsWithoutStems = new Map<string, number>();
  let work = 0;
  for (const { question, askedAt } of asked) {
    if ((work += 1) >= WORK_PER_SLICE) {
      work = 0;
      await yieldToEventLoop();
    }
    const normalised = normaliseQuestion(question);
    const stems = contentStems(normalised);
    let joined: number | undefined;
    if (stems.size === 0) {
      joined = groupsWithoutStems.get(normalised);
    } else {
      // How many stems each group sharing one has in common with the question: its similarity follows.
      const shared = new Map<number, number>();
      for (const stem of stems) for (const index of groupsByStem.get(stem) ?? []) shared.set(index, (shared.get(index) ?? 0) + 1);
      work += shared.size;
      for (const [index, count] of shared) {
        if ((joined === undefined || index < joined) && diceCoefficient(count, groups[index]!.stems.size, stems.size) >= options.threshold) joined = index;
      }
    }
    const group = joined === undefined ? undefined : groups[joined];
    if (group) {
      group.count += 1;
      if (group.questions.length < options.examples && !group.questions.includes(normalised)) group.questions.push(normalised);
      continue;
    }
    const index = groups.length;
    groups.push({ representative: normalised, question, count: 1, lastAskedAt: askedAt, questions: [normalised], stems });
    if (stems.size === 0) groupsWithoutStems.set(normalised, index);
    for (const stem of stems) {
      const indexes = groupsByStem.get(stem);
      if (indexes) indexes.push(index);
      else groupsByStem.set(stem, [index]);
    }
  }
  return groups.map(({ stems: _stems, ...group }) => group);
}
