import { afterEach, describe, expect, it } from "vitest";
import { createFileExtractionPool, type FileExtractionPool } from "../../src/ingest/extract/file-extraction-pool.js";
import { extractDocx } from "../../src/ingest/extract/extract-docx.js";
import { extractMarkdown } from "../../src/ingest/extract/extract-markdown.js";
import { compiledWorkerUrl } from "../support/compiled-worker.js";
import { buildDocx, buildPdf } from "../support/generated-files.js";

const workerUrl = compiledWorkerUrl("ingest/extract/file-extract-worker.js");
const input = (bytes: Uint8Array, mediaType: string) => ({ bytes, mediaType, filename: "f", url: "https://example.com/f", title: "f", csvMode: "chunks" as const });

describe("file extraction", () => {
  let pool: FileExtractionPool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it("happy: DOCX headings and Markdown headings come out as headings, a DOCX table as lines", async () => {
    const docx = await extractDocx(buildDocx([{ heading: "Prices" }, { table: [["Truing", "18 euros"]] }, { heading: "Hours" }, { paragraph: "Open at eight." }]), "Manual", "https://example.com/m");
    expect(docx.sections.map((section) => section.heading)).toEqual(["Prices", "Hours"]);
    expect(docx.sections[0]!.text).toMatch(/Truing\W+18 euros/);
    const markdown = extractMarkdown("# Hours\n\nOpen at eight.\n\n## Holidays\n\nClosed in August.\n", "hours.md", "https://example.com/h");
    expect(markdown.sections.map((section) => section.heading)).toEqual(["Hours", "Holidays"]);
    expect(markdown.title).toBe("hours.md");
  });

  it("security: a file that takes longer than the time limit has its thread terminated, and fails with the reason", async () => {
    pool = createFileExtractionPool({ size: 1, workerUrl, timeoutMs: 1 });
    const pdf = await buildPdf(Array.from({ length: 50 }, (_, i) => `Page ${i + 1} of a long manual.`));
    await expect(pool.prepare(input(pdf, "application/pdf"))).rejects.toMatchObject({ code: "extraction_failed", message: "reading the file took longer than 1 ms" });
  });

  it("security: a file that needs more memory than the heap limit stops its thread, and fails with the reason", async () => {
    pool = createFileExtractionPool({ size: 1, workerUrl, maxHeapMb: 64 });
    const text = Buffer.from("- item\n".repeat(1_500_000));
    await expect(pool.prepare(input(text, "text/markdown"))).rejects.toMatchObject({ code: "extraction_failed", message: expect.stringMatching(/memory/) });
    // The pool serves the next file on a fresh thread.
    const ok = await pool.prepare(input(Buffer.from("# Title\n\nBody text."), "text/markdown"));
    expect(ok.kind).toBe("document");
  });
});
