import type { FileQuestionsSink } from "../../ingest/file-questions-sink.js";
import { replaceSourceCuratedAnswers } from "./curated-answer-repository.js";

/** A CSV's question,answer rows as curated answers of its source: given to ingestion by the composition root. */
export const curatedAnswersFromFiles: FileQuestionsSink = {
  replaceSourceQuestions: replaceSourceCuratedAnswers,
};
