import type { AnswerRequest } from "../../../src/answering/generate/answer-generator.js";
import { SHOP_PASSAGES } from "./fixtures/site-passages.js";

/** A visitor's question about the tea shop, over its passages; override what a test is about. */
export function answerRequest(overrides: Partial<AnswerRequest> = {}): AnswerRequest {
  return {
    question: "How long does shipping take, and is it free?",
    passages: SHOP_PASSAGES,
    lowConfidence: false,
    history: [],
    persona: { name: "Mia", tone: "warm and to the point" },
    language: "en",
    signal: new AbortController().signal,
    ...overrides,
  };
}
