import { answerErrorMessages, type AnswerError, type AnswerEvent } from "./answer-generator.js";

export interface CollectedAnswer {
  content: string;
  citedDocumentIds: number[];
  lowConfidence: boolean;
  generator: string;
  /** Set when the answer broke off after part of it was generated; `content` holds that part. */
  error?: { code: AnswerError["code"]; message: string };
}

/**
 * Reads an answer stream to its end, for POST /messages. A stream that ends without `done`
 * (it should not) is reported as a `generation_failed` error with no citations.
 */
export async function collectAnswer(events: AsyncIterable<AnswerEvent>): Promise<CollectedAnswer> {
  let content = "";
  let error: CollectedAnswer["error"];
  for await (const event of events) {
    switch (event.type) {
      case "token":
        content += event.token;
        break;
      case "error":
        error = { code: event.code, message: event.message };
        break;
      case "done":
        return {
          content,
          citedDocumentIds: event.citedDocumentIds,
          lowConfidence: event.lowConfidence,
          generator: event.generator,
          ...(error === undefined ? {} : { error }),
        };
    }
  }
  return {
    content,
    citedDocumentIds: [],
    lowConfidence: true,
    generator: "unknown",
    error: error ?? { code: "generation_failed", message: answerErrorMessages.generation_failed },
  };
}
