// The threshold of curated answers (packages/server/src/console/curated/question-similarity.ts):
// for each eval set, one question per document is curated (the first of the document's questions);
// every other question is then matched against the curated ones as the answering path does (the
// most similar curated question, if at or above the threshold). A match is true when the curated
// question is about the asked question's document, false otherwise; the unanswerable questions
// can only match falsely.
//
//   flock /tmp/build.lock npx tsc -b packages/contracts packages/server && node eval/curated-threshold.mjs
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { normaliseQuestion, questionSimilarity } = await import(
  pathToFileURL(join(root, "packages/server/dist/console/curated/question-similarity.js")).href
);
const THRESHOLDS = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8];
const readJson = async (path) => JSON.parse(await readFile(join(root, path), "utf8"));

async function measure(name, directory) {
  const questions = await readJson(`eval/${directory}/questions.json`);
  const unanswerable = await readJson(`eval/${directory}/unanswerable.json`);
  const curated = new Map();
  for (const question of questions) if (!curated.has(question.expected)) curated.set(question.expected, question);
  const curatedList = [...curated.values()].map((question) => ({ ...question, normalised: normaliseQuestion(question.question) }));
  const best = (text) => {
    const normalised = normaliseQuestion(text);
    let top = { score: -1, expected: null };
    for (const candidate of curatedList) {
      const score = questionSimilarity(candidate.normalised, normalised);
      if (score > top.score) top = { score, expected: candidate.expected };
    }
    return top;
  };
  const asked = questions.filter((question) => curated.get(question.expected) !== question).map((question) => ({ ...best(question.question), want: question.expected }));
  const outside = unanswerable.map((question) => ({ ...best(question.question), want: null }));
  const rows = THRESHOLDS.map((threshold) => {
    const paraphraseTrue = asked.filter((match) => match.score >= threshold && match.expected === match.want).length;
    const paraphraseFalse = asked.filter((match) => match.score >= threshold && match.expected !== match.want).length;
    const outsideFalse = outside.filter((match) => match.score >= threshold).length;
    return { threshold, paraphraseTrue, paraphraseFalse, outsideFalse };
  });
  console.log(`\n${name}: ${curatedList.length} curated (one per document), ${asked.length} other answerable questions, ${outside.length} unanswerable`);
  console.log("| threshold | true matches | false matches (answerable) | false matches (unanswerable) | precision |");
  console.log("|---|---|---|---|---|");
  for (const row of rows) {
    const matched = row.paraphraseTrue + row.paraphraseFalse + row.outsideFalse;
    const precision = matched === 0 ? "–" : `${((100 * row.paraphraseTrue) / matched).toFixed(0)} %`;
    const pct = (count, of) => `${count}/${of} (${((100 * count) / of).toFixed(1)} %)`;
    console.log(`| ${row.threshold} | ${pct(row.paraphraseTrue, asked.length)} | ${pct(row.paraphraseFalse, asked.length)} | ${pct(row.outsideFalse, outside.length)} | ${precision} |`);
  }
  // The exact question asked again (normalised equal) always matches its own curated answer.
  const self = curatedList.filter((question) => best(question.question).expected === question.expected).length;
  console.log(`The curated questions themselves asked again: ${self}/${curatedList.length} matched to their own answer.`);
}

await measure("Fixtures (Northwind Bikes)", "fixtures");
await measure("GOV.UK (ConditionalQA)", "govuk");
