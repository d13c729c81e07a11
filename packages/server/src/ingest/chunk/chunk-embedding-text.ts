import type { DocumentChunk } from "./document-chunk.js";

/**
 * The text to embed for a chunk: title and heading on their own lines, then a blank line and the
 * chunk's text. An empty title, a null heading and a heading that repeats the title are left out.
 */
export function chunkEmbeddingText(chunk: Pick<DocumentChunk, "title" | "heading" | "text">): string {
  const context: string[] = [];
  if (chunk.title !== "") context.push(chunk.title);
  if (chunk.heading !== null && chunk.heading !== "" && chunk.heading !== chunk.title) context.push(chunk.heading);
  return context.length === 0 ? chunk.text : `${context.join("\n")}\n\n${chunk.text}`;
}
