/**
 * The entry point of an extraction worker thread (see `createExtractionPool`): it answers each
 * `ExtractionRequest` posted to it with an `ExtractionResponse`: the extracted document and its chunks. Loaded as compiled JavaScript;
 * importing it on the main thread does nothing.
 */
import { parentPort } from "node:worker_threads";
import { chunkDocument } from "../chunk/chunk-document.js";
import { extractDocument } from "./extract-document.js";
import { isExtractionRequest } from "./extraction-messages.js";
import type { ExtractionResponse } from "./extraction-messages.js";

const port = parentPort;
if (port !== null) {
  port.on("message", (message: unknown) => {
    port.postMessage(answer(message));
  });
}

function answer(message: unknown): ExtractionResponse {
  if (!isExtractionRequest(message)) {
    const id = typeof message === "object" && message !== null && "id" in message ? message.id : undefined;
    return { id: typeof id === "number" ? id : -1, ok: false, message: "malformed extraction request" };
  }
  try {
    const document = extractDocument(message.input);
    // Chunking is CPU work too: it happens here, off the event loop, with the extraction.
    return { id: message.id, ok: true, document, chunks: chunkDocument(document) };
  } catch (error) {
    return { id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
