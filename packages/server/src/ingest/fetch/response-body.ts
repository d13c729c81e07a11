import { pipeline } from "node:stream";
import type { Readable, Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { FetchError } from "../../network/fetch-error.js";

export interface BodyReadOptions {
  /** The undici response body. */
  raw: Readable;
  contentEncoding: string | undefined;
  /** The declared Content-Length, checked before anything is read. */
  declaredLength: number | undefined;
  /** Cap on the decoded body. */
  maxBytes: number;
  /** Stop quietly at the cap instead of failing with `too_large` (robots.txt). */
  truncate: boolean;
  url: string;
  /** Maps a network error met while reading to a FetchError. */
  describeFailure: (error: unknown) => FetchError;
}

/**
 * Streams a response body, undoing gzip/deflate/br, and aborts the transfer (destroying
 * the connection) as soon as the decoded size passes the cap: `too_large`, or a quiet
 * stop when truncating.
 */
export async function* readCappedBody(options: BodyReadOptions): AsyncGenerator<Buffer, void, undefined> {
  const { raw, maxBytes } = options;
  let stream: Readable = raw;
  let total = 0;
  let finished = false;
  try {
    if (!options.truncate && options.declaredLength !== undefined && options.declaredLength > maxBytes) {
      throw tooLarge(options);
    }
    const decoder = decoderFor(options.contentEncoding, options.url);
    if (decoder !== undefined) stream = pipeline(raw, decoder, () => {});
    for await (const chunk of stream) {
      const buffer = toBuffer(chunk);
      total += buffer.length;
      if (total > maxBytes) {
        if (!options.truncate) throw tooLarge(options);
        yield buffer.subarray(0, buffer.length - (total - maxBytes));
        return;
      }
      yield buffer;
    }
    finished = true;
  } catch (error) {
    throw error instanceof FetchError ? error : options.describeFailure(error);
  } finally {
    if (!finished) {
      destroyQuietly(stream);
      destroyQuietly(raw);
    }
  }
}

/** Collects a whole (capped) body. */
export async function collectBody(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

function decoderFor(contentEncoding: string | undefined, url: string): Transform | undefined {
  const encoding = contentEncoding?.trim().toLowerCase() ?? "";
  if (encoding === "" || encoding === "identity") return undefined;
  if (encoding === "gzip" || encoding === "x-gzip") return createGunzip();
  if (encoding === "deflate") return createInflate();
  if (encoding === "br") return createBrotliDecompress();
  throw new FetchError("fetch_failed", `unsupported Content-Encoding "${encoding}" from ${url}`);
}

/** undici turns a plain destroy() into an "aborted" error event; nobody is listening any more. */
function destroyQuietly(stream: Readable): void {
  stream.on("error", () => {});
  stream.destroy();
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk));
}

function tooLarge(options: BodyReadOptions): FetchError {
  return new FetchError("too_large", `${options.url} is larger than ${options.maxBytes} bytes`);
}
