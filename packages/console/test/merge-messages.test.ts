import { describe, expect, it } from "vitest";
import { lastSeqOf, mergeMessages, type ConsoleMessage } from "../src/conversation/merge-messages.js";

const message = (id: string, seq: number | null, content = id, createdAt = "2026-11-23T10:00:00.000Z"): ConsoleMessage => ({
  id,
  seq,
  role: "visitor",
  content,
  citations: [],
  low_confidence: false,
  author: null,
  created_at: createdAt,
});

describe("merging a conversation's messages (live events and catch-up pages)", () => {
  it("happy: a catch-up page overlapping what is held adds each message once, in seq order, the newer copy kept", () => {
    const held = [message("a", 1), message("b", 2), message("c", 4, "live copy")];
    const page = [message("c", 4, "stored copy"), message("d", 3), message("e", 5)];
    const merged = mergeMessages(held, page);
    expect(merged.map((m) => [m.id, m.seq])).toEqual([
      ["a", 1],
      ["b", 2],
      ["d", 3],
      ["c", 4],
      ["e", 5],
    ]);
    expect(merged.find((m) => m.id === "c")?.content).toBe("stored copy");
    expect(lastSeqOf(merged)).toBe(5);
  });

  it("happy: messages stored before seqs existed come first, by time; an empty conversation resumes from 0", () => {
    const merged = mergeMessages([message("new", 1)], [message("old-2", null, "", "2026-11-23T09:00:02.000Z"), message("old-1", null, "", "2026-11-23T09:00:01.000Z")]);
    expect(merged.map((m) => m.id)).toEqual(["old-1", "old-2", "new"]);
    expect(lastSeqOf([])).toBe(0);
    expect(lastSeqOf([message("x", null)])).toBe(0);
  });
});
