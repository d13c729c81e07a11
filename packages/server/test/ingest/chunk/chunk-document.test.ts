import { describe, expect, it } from "vitest";
import { chunkDocument } from "../../../src/ingest/chunk/chunk-document.js";
import type { DocumentChunk } from "../../../src/ingest/chunk/document-chunk.js";
import { estimateTokens } from "../../../src/ingest/chunk/estimate-tokens.js";
import type { ExtractedDocument } from "../../../src/ingest/extract/extracted-document.js";
import { paragraph, sentence } from "./prose.js";

const TARGET = 300;
const MAX = 450;
const OVERLAP_BUDGET = 45;

const documentOf = (sections: ExtractedDocument["sections"]): ExtractedDocument => ({
  title: "Help centre",
  text: sections.map((section) => [section.heading, section.text].filter((part) => part !== null).join("\n\n")).join("\n\n"),
  sections,
});

/** Sentence numbers (`#n`) in order of appearance. */
const numbersIn = (text: string): number[] => [...text.matchAll(/#(\d+)/g)].map((match) => Number(match[1]));
const firstNumber = (chunk: DocumentChunk): number => numbersIn(chunk.text)[0] ?? -1;
const lastNumber = (chunk: DocumentChunk): number => numbersIn(chunk.text).at(-1) ?? -1;

/** The text the next chunk repeats from the end of the previous one ("" when there is none). */
function overlapBetween(previous: DocumentChunk, next: DocumentChunk): string {
  const start = previous.text.indexOf(sentence(firstNumber(next)));
  if (start < 0) return "";
  const tail = previous.text.slice(start);
  return next.text.startsWith(tail) ? tail : "";
}

const helpCentre = documentOf([
  { heading: null, text: paragraph(0, 3) },
  { heading: "Deliveries", text: [paragraph(3, 8), paragraph(11, 12), paragraph(23, 6), paragraph(29, 10)].join("\n\n") },
  { heading: "Returns", text: [paragraph(39, 20), paragraph(59, 15)].join("\n\n") },
  { heading: "Contact", text: paragraph(74, 2) },
]);
const sectionOf = (n: number): string | null => (n < 3 ? null : n < 39 ? "Deliveries" : n < 74 ? "Returns" : "Contact");

describe("chunkDocument on a multi-section document", () => {
  const chunks = chunkDocument(helpCentre);

  it("happy: sizes chunks around the target and never above the maximum", () => {
    expect(chunks.length).toBeGreaterThan(5);
    chunks.forEach((chunk, index) => {
      expect(chunk.index).toBe(index);
      expect(chunk.title).toBe("Help centre");
      expect(chunk.tokenEstimate).toBe(estimateTokens(chunk.text));
      expect(chunk.tokenEstimate).toBeLessThanOrEqual(MAX);
      const next = chunks[index + 1];
      const endsSection = next === undefined || next.heading !== chunk.heading;
      if (!endsSection) expect(chunk.tokenEstimate).toBeGreaterThanOrEqual(TARGET / 2);
      if (!endsSection) expect(chunk.tokenEstimate).toBeLessThanOrEqual(TARGET);
    });
  });

  it("happy: carries the heading of the section each chunk starts in; a small section merges forward", () => {
    for (const chunk of chunks) expect(chunk.heading).toBe(sectionOf(firstNumber(chunk)));
    const first = chunks[0];
    expect(first?.heading).toBeNull();
    expect(first?.text.startsWith(`${paragraph(0, 3)}\n\nDeliveries\n\n${sentence(3)}`)).toBe(true);
    expect(chunks.map((chunk) => chunk.heading)).toEqual(expect.arrayContaining(["Deliveries", "Returns"]));
    expect(chunks.flatMap((chunk) => numbersIn(chunk.text))).toEqual(expect.arrayContaining(Array.from({ length: 76 }, (_, n) => n)));
  });

  it("happy: starts and ends every chunk on a sentence boundary", () => {
    for (const chunk of chunks) {
      expect(chunk.text.startsWith(sentence(firstNumber(chunk))), chunk.text.slice(0, 80)).toBe(true);
      expect(chunk.text.endsWith(sentence(lastNumber(chunk))), chunk.text.slice(-80)).toBe(true);
    }
  });

  it("happy: repeats the tail sentences of the previous chunk within a section, never across sections", () => {
    let overlaps = 0;
    for (let index = 1; index < chunks.length; index += 1) {
      const previous = chunks[index - 1] as DocumentChunk;
      const next = chunks[index] as DocumentChunk;
      const overlap = overlapBetween(previous, next);
      const sameSection = sectionOf(lastNumber(previous)) === sectionOf(firstNumber(next));
      if (sameSection) {
        expect(overlap, `chunk ${index}`).not.toBe("");
        expect(estimateTokens(overlap)).toBeLessThanOrEqual(2 * OVERLAP_BUDGET);
        overlaps += 1;
      } else {
        expect(overlap, `chunk ${index}`).toBe("");
      }
    }
    expect(overlaps).toBeGreaterThan(3);
  });

  it("happy: is deterministic", () => {
    expect(chunkDocument(structuredClone(helpCentre))).toEqual(chunks);
    expect(JSON.stringify(chunkDocument(helpCentre))).toBe(JSON.stringify(chunks));
  });
});

describe("chunkDocument boundaries", () => {
  it("happy: ends chunks at paragraph boundaries when paragraphs fit", () => {
    const paragraphs = Array.from({ length: 12 }, (_, index) => paragraph(index * 5, 5));
    const chunks = chunkDocument(documentOf([{ heading: "Guide", text: paragraphs.join("\n\n") }]));
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(lastNumber(chunk) % 5).toBe(4);
    for (const chunk of chunks.slice(1)) expect(chunk.text).toMatch(/\n\n/);
  });

  it("happy: fills a small chunk with sentences of a paragraph that does not fit whole", () => {
    const short = paragraph(0, 2);
    const long = paragraph(2, 12);
    expect(estimateTokens(short) + estimateTokens(long)).toBeGreaterThan(TARGET);
    const chunks = chunkDocument(documentOf([{ heading: "Guide", text: `${short}\n\n${long}` }]));
    expect(chunks[0]?.text.startsWith(`${short}\n\n${sentence(2)} ${sentence(3)}`)).toBe(true);
    expect(chunks[0]?.tokenEstimate).toBeGreaterThanOrEqual(TARGET / 2);
  });

  it("happy: splits one long paragraph at sentence boundaries with overlap everywhere", () => {
    const chunks = chunkDocument(documentOf([{ heading: null, text: paragraph(0, 200) }]));
    expect(chunks.length).toBeGreaterThan(10);
    chunks.forEach((chunk, index) => {
      expect(chunk.heading).toBeNull();
      expect(chunk.tokenEstimate).toBeLessThanOrEqual(index === chunks.length - 1 ? MAX : TARGET);
      expect(chunk.text.startsWith(sentence(firstNumber(chunk)))).toBe(true);
      expect(chunk.text).not.toContain("\n");
      const previous = chunks[index - 1];
      if (previous !== undefined) expect(overlapBetween(previous, chunk)).not.toBe("");
    });
    expect(lastNumber(chunks.at(-1) as DocumentChunk)).toBe(199);
  });

  it("happy: keeps a section slightly over the target in one chunk instead of leaving a scrap", () => {
    const text = paragraph(0, 13);
    expect(estimateTokens(text)).toBeGreaterThan(TARGET);
    expect(chunkDocument(documentOf([{ heading: "Short", text }]))).toEqual([
      { index: 0, heading: "Short", title: "Help centre", text, tokenEstimate: estimateTokens(text) },
    ]);
  });

  it("happy: chunks Chinese text without spaces at sentence ends", () => {
    const sentences = Array.from({ length: 120 }, (_, n) => `第${n}号门店位于市中心，交通非常便利，营业时间为上午九点至晚上八点。`);
    const chunks = chunkDocument({ title: "门店", text: sentences.join(""), sections: [] });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.tokenEstimate).toBeLessThanOrEqual(MAX);
      expect(chunk.text).toMatch(/^第\d+号门店.*。$/su);
      expect(chunk.tokenEstimate).toBeGreaterThan(chunk.text.length * 0.8);
    }
    for (let n = 0; n < 120; n += 1) expect(chunks.some((chunk) => chunk.text.includes(`第${n}号`))).toBe(true);
  });

  it("happy: hard-caps a sentence without any break and loses no text", () => {
    const run = "我们的诊所位于市中心交通非常便利".repeat(120);
    const chunks = chunkDocument({ title: "t", text: run, sections: [] });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.tokenEstimate).toBeLessThanOrEqual(MAX);
    expect(chunks.map((chunk) => chunk.text).join("")).toBe(run);
  });

  it("happy: cuts an absurdly long word between characters and keeps the sentences around it whole", () => {
    const blob = "Q".repeat(6000);
    const text = `${sentence(1)} ${blob} ${sentence(2)}`;
    const chunks = chunkDocument({ title: "t", text, sections: [] });
    for (const chunk of chunks) {
      expect(chunk.tokenEstimate).toBeLessThanOrEqual(MAX);
      expect(chunk.text.startsWith(sentence(1)) || chunk.text.startsWith("Q")).toBe(true);
    }
    expect(chunks.map((chunk) => chunk.text).join("").match(/Q/g)).toHaveLength(6000);
    expect(chunks.at(-1)?.text.endsWith(sentence(2))).toBe(true);
  });

  it("happy: keeps abbreviations inside their sentence", () => {
    const text = "Dr. Patel sees patients on Mondays. Ask for Mr. Jones, e.g. at the front desk. Payment is due at 5 p.m. sharp.";
    const chunks = chunkDocument({ title: "t", text, sections: [] }, { targetTokens: 16, overlapRatio: 0 });
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      "Dr. Patel sees patients on Mondays.",
      "Ask for Mr. Jones, e.g. at the front desk.",
      "Payment is due at 5 p.m. sharp.",
    ]);
  });
});

describe("chunkDocument options and edge cases", () => {
  it("happy: follows a custom target and overlap", () => {
    const chunks = chunkDocument(documentOf([{ heading: null, text: paragraph(0, 60) }]), { targetTokens: 120, overlapRatio: 0 });
    for (const chunk of chunks.slice(0, -1)) expect(chunk.tokenEstimate).toBeLessThanOrEqual(120);
    for (let index = 1; index < chunks.length; index += 1) {
      expect(firstNumber(chunks[index] as DocumentChunk)).toBe(lastNumber(chunks[index - 1] as DocumentChunk) + 1);
    }
  });

  it("happy: chunks the text of a document without sections; an empty document has no chunks", () => {
    expect(chunkDocument({ title: "Notes", text: "Open daily.", sections: [] })).toEqual([
      { index: 0, heading: null, title: "Notes", text: "Open daily.", tokenEstimate: 3 },
    ]);
    expect(chunkDocument({ title: "Empty", text: "", sections: [] })).toEqual([]);
    expect(chunkDocument({ title: "Blank", text: " \n\n ", sections: [{ heading: "H", text: "  " }] })).toEqual([]);
  });

  it("error: rejects nonsensical options", () => {
    expect(() => chunkDocument(helpCentre, { targetTokens: 0 })).toThrow(RangeError);
    expect(() => chunkDocument(helpCentre, { overlapRatio: 0.9 })).toThrow(RangeError);
    expect(() => chunkDocument(helpCentre, { overlapRatio: Number.NaN })).toThrow(RangeError);
    expect(() => chunkDocument(helpCentre, { targetTokens: 300, maxTokens: 200 })).toThrow(RangeError);
  });
});
