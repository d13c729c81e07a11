import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

/** A file of a build (the widget's, the console's) held in memory with its gzipped form and a strong ETag. */
export interface BuiltFile {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

/**
 * Gzipped forms by the body's hash. Level 9 of the console's 590 KB bundle is about 25 ms of a
 * core; a process that builds its app again (the test suite builds several hundred) compresses
 * each content once. Bounded: a build's few files, and the last builds a process read.
 */
const gzippedByHash = new Map<string, Buffer>();
const GZIPPED_KEPT = 64;

export function builtFile(body: Buffer): BuiltFile {
  const hash = createHash("sha256").update(body).digest("base64url");
  let gzipped = gzippedByHash.get(hash);
  if (!gzipped) {
    gzipped = gzipSync(body, { level: 9 });
    if (gzippedByHash.size >= GZIPPED_KEPT) gzippedByHash.delete(gzippedByHash.keys().next().value!);
    gzippedByHash.set(hash, gzipped);
  }
  return { body, gzipped, etag: `"${hash.slice(0, 27)}"` };
}
