import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { chunkDocument } from "../../../src/ingest/chunk/chunk-document.js";
import { extractDocument } from "../../../src/ingest/extract/extract-document.js";
import type { ExtractInput } from "../../../src/ingest/extract/extracted-document.js";
import { createExtractionPool } from "../../../src/ingest/extract/extraction-pool.js";
import type { ExtractionPool } from "../../../src/ingest/extract/extraction-pool.js";

/**
 * Worker threads cannot load TypeScript, so the pool runs the compiled worker. The root `npm test`
 * builds (`tsc -b`) before Vitest; a bare `vitest run` without a build skips the round trip.
 */
const builtWorker = new URL("../../../dist/ingest/extract/extract-worker.js", import.meta.url);
const isBuilt = existsSync(fileURLToPath(builtWorker));

const page = (index: number): ExtractInput => ({
  body: `<html><head><title>Page ${index}</title></head><body><nav>Menu</nav><main><h2>Part ${index}</h2><p>Paragraph number ${index} of the test site.</p></main></body></html>`,
  contentType: "text/html",
  url: `https://site.test/pages/${index}`,
});

describe("createExtractionPool", () => {
  let pool: ExtractionPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it.skipIf(!isBuilt)("happy: extracts on worker threads exactly as on the main thread (needs `npm run build`)", async () => {
    const active = createExtractionPool({ size: 2, workerUrl: builtWorker });
    pool = active;
    const inputs = [...Array.from({ length: 5 }, (_, index) => page(index)), {
      body: readFileSync(new URL("./fixtures/article-with-boilerplate.html", import.meta.url), "utf8"),
      contentType: "text/html" as const,
      url: "https://acme.test/help/shipping",
    }];
    const documents = await Promise.all(inputs.map((input) => active.extract(input)));
    expect(documents).toEqual(inputs.map((input) => extractDocument(input)));
    expect(documents[3]).toMatchObject({ title: "Page 3", text: "Part 3\n\nParagraph number 3 of the test site." });
    // prepare() also chunks on the worker, exactly as chunkDocument does on the main thread.
    const prepared = await active.prepare(inputs[5]!);
    expect(prepared.chunks).toEqual(chunkDocument(extractDocument(inputs[5]!)));
    expect(prepared.chunks.length).toBeGreaterThan(0);
  });

  it("error: rejects when the worker cannot start, and keeps rejecting rather than hanging", async () => {
    pool = createExtractionPool({ size: 1, workerUrl: new URL("./missing-extract-worker.js", import.meta.url) });
    await expect(pool.extract(page(1))).rejects.toMatchObject({ failure: "thread_failed_to_start" });
    await expect(pool.extract(page(2))).rejects.toMatchObject({ failure: "thread_failed_to_start" });
  });

  it.skipIf(!isBuilt)("error: an extraction that throws fails alone, with its own message", async () => {
    const active = createExtractionPool({ size: 1, workerUrl: builtWorker });
    pool = active;
    const unsupported = { ...page(1), contentType: "application/pdf" } as unknown as ExtractInput;
    await expect(active.extract(unsupported)).rejects.toMatchObject({ failure: "task_failed", message: "cannot extract content of type application/pdf" });
    expect((await active.extract(page(2))).title).toBe("Page 2");
  });

  it.skipIf(!isBuilt)("error: an aborted extraction rejects with aborted", async () => {
    const active = createExtractionPool({ size: 1, workerUrl: builtWorker });
    pool = active;
    await expect(active.extract(page(1), { signal: AbortSignal.abort() })).rejects.toMatchObject({ failure: "aborted" });
    expect((await active.extract(page(3))).title).toBe("Page 3");
  });

  it.skipIf(!isBuilt)("error: rejects work once closed", async () => {
    pool = createExtractionPool({ size: 1, workerUrl: builtWorker });
    await pool.close();
    await expect(pool.extract(page(1))).rejects.toMatchObject({ failure: "closed", message: /extraction worker pool was closed/ });
  });

  it("error: refuses a size that is not a positive integer", () => {
    expect(() => createExtractionPool({ size: 0 })).toThrow(RangeError);
    expect(() => createExtractionPool({ size: 1.5 })).toThrow(RangeError);
  });
});
