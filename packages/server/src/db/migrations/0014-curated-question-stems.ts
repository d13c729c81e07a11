import type { Migration } from "./migration.js";

/**
 * A snapshot of the stop words of console/curated/question-similarity.ts as this migration
 * shipped: the backfill below must keep computing what it computed then.
 */
const STOP_WORDS =
  "a an the and or but if of to in on at by for with from into about as is are was were be been being am do does did " +
  "doing have has had having i me my mine we us our you your yours he him his she her it its they them their this that " +
  "these those there here what which who whom whose when where why how can could would should will shall may might must " +
  "not no so than too very just also any some all each both more most other such only own same then once again " +
  "hi hello hey please thanks thank get got im ive id dont cant wont isnt arent its whats hows theres";

/** A word's length as JavaScript counts it (UTF-16 code units: a character above U+FFFF counts 2). */
const jsLength = (word: string) => `(length(${word}) + length(regexp_replace(${word}, '[^\\U00010000-\\U0010FFFF]', '', 'g')))`;

/** question-similarity.ts's `stem`, the first suffix that leaves at least 3 (UTF-16) characters. */
const stemmed = (word: string) => {
  const rules = ["ing", "ies", "ied", "ed", "es", "ly", "s"].map((suffix) => {
    const base = `left(${word}, -${suffix.length})`;
    return `WHEN ${jsLength(word)} - ${suffix.length} >= 3 AND right(${word}, ${suffix.length}) = '${suffix}' THEN ${suffix === "ies" || suffix === "ied" ? `${base} || 'y'` : base}`;
  });
  return `CASE ${rules.join(" ")} ELSE ${word} END`;
};

/**
 * `contentStems(question_normalised)` in SQL, for the rows stored before this migration (the
 * service writes the column itself from then on). Tested against the JavaScript on both stores
 * (test/db/curated-question-stems.test.ts).
 */
export const CURATED_QUESTION_STEMS_BACKFILL = `UPDATE curated_answers SET question_stems = ARRAY(
  SELECT DISTINCT ${stemmed("word")}
  FROM regexp_split_to_table(question_normalised, ' ') AS word
  WHERE word <> '' AND word <> ALL (string_to_array('${STOP_WORDS}', ' '))
) WHERE question_stems IS NULL`;

/**
 * The answering path's curated-answer lookup as a SQL pre-filter (find-curated-answer.ts): each
 * curated question's content-word stems (`contentStems` of question-similarity.ts) in a `text[]`
 * with a GIN index. A question can only reach the threshold (a Dice coefficient above 0) with a
 * curated question it shares a stem with, so the lookup selects those by overlap (`&&`) and
 * scores only them, instead of reading the agent's newest 1,000 and comparing each on the event
 * loop. A question without content words ("hi") equals only a curated question without content
 * words and the same normalised text: the partial index finds an agent's few such rows.
 *
 * `fastupdate = off`: curated answers are written by hand, a few a day, so each goes into the
 * index at once. With the default, rows wait in GIN's pending list until a vacuum (PGlite has no
 * autovacuum), and the planner, costing that list, reads the whole table instead.
 */
export const curatedQuestionStems: Migration = {
  name: "0014-curated-question-stems",
  statements: [
    `ALTER TABLE curated_answers ADD COLUMN question_stems text[]`,
    CURATED_QUESTION_STEMS_BACKFILL,
    `ALTER TABLE curated_answers ALTER COLUMN question_stems SET NOT NULL`,
    `CREATE INDEX curated_answers_question_stems_idx ON curated_answers USING gin (question_stems) WITH (fastupdate = off)`,
    `CREATE INDEX curated_answers_agent_without_stems_idx ON curated_answers (agent_id) WHERE question_stems = '{}'`,
  ],
};
