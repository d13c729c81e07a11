/**
 * The entry point of an extraction worker thread (see `createExtractionPool`): its default export
 * extracts one page and cuts it into chunks. Loaded as compiled JavaScript by the pool's threads.
 */
import { chunkDocument } from "../chunk/chunk-document.js";
import { extractDocument } from "./extract-document.js";
import type { ExtractInput } from "./extracted-document.js";
import type { PreparedDocument } from "./extraction-pool.js";

export default function prepareDocument(input: ExtractInput): PreparedDocument {
  const document = extractDocument(input);
  // Chunking is CPU work too: it happens here, off the event loop, with the extraction.
  return { document, chunks: chunkDocument(document) };
}
