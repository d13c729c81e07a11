import { describe, expect, it } from "vitest";
import { chunkEmbeddingText } from "../../../src/ingest/chunk/chunk-embedding-text.js";

describe("chunkEmbeddingText", () => {
  it("happy: puts the title and heading above the text", () => {
    expect(chunkEmbeddingText({ title: "Shipping & Returns", heading: "Returns", text: "Return within 30 days." })).toBe(
      "Shipping & Returns\nReturns\n\nReturn within 30 days.",
    );
  });

  it("happy: leaves out a null heading, an empty title and a heading that repeats the title", () => {
    expect(chunkEmbeddingText({ title: "FAQ", heading: null, text: "Body." })).toBe("FAQ\n\nBody.");
    expect(chunkEmbeddingText({ title: "", heading: "Hours", text: "Body." })).toBe("Hours\n\nBody.");
    expect(chunkEmbeddingText({ title: "", heading: null, text: "Body." })).toBe("Body.");
    expect(chunkEmbeddingText({ title: "Pricing", heading: "Pricing", text: "Body." })).toBe("Pricing\n\nBody.");
  });
});
