import type { Schemas } from "../api/client.js";

type AnswerTrace = Schemas["AnswerTrace"];

const REASONS: Record<string, string> = {
  similar_passage: "a passage says much the same as the question",
  words_matched: "the question's words are on the pages it read",
  weak_match: "the pages match the question's words only weakly",
  unknown_words: "the question uses words no page uses",
  nothing_retrieved: "no page matched the question",
};

/** The pipeline's stored reason for an answer, in sentences an operator reads (no scores). */
export function explainAnswer(trace: AnswerTrace): string[] {
  const lines: string[] = [];
  if (trace.decided_by === "curated_answer") lines.push("Served from a curated answer.");
  else if (trace.decided_by === "small_talk") lines.push("Small talk: the bot's fixed reply.");
  if (trace.sure !== null) {
    const why = trace.reason ? (REASONS[trace.reason] ?? trace.reason) : "";
    lines.push(`${trace.sure ? "Sure" : "Unsure"}${why ? `: ${why}` : ""}.`);
  }
  if (trace.unknown_words.length > 0) lines.push(`Words no page uses: ${trace.unknown_words.join(", ")}.`);
  if (trace.turned_unsure) lines.push("The pages looked right, but the reply said it was not sure.");
  if (trace.fell_back) lines.push("The answer model gave no answer; the offline answerer wrote this one.");
  if (trace.generator) lines.push(`Written by: ${trace.generator}.`);
  return lines;
}
