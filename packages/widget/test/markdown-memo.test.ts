import { parseHTML } from "linkedom";
import { h, render } from "preact";
import { describe, expect, it, vi } from "vitest";
import type { ChatMessage } from "../src/app/chat-message.js";
import { en } from "../src/app/ui-strings.js";

/** Every source the markdown parser was given, in order. */
const parsed = vi.hoisted(() => [] as string[]);
vi.mock("../src/app/markdown.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../src/app/markdown.js")>();
  return {
    ...actual,
    parseMarkdown: (source: string) => {
      parsed.push(source);
      return actual.parseMarkdown(source);
    },
  };
});

const { Message } = await import("../src/app/chat-panel.js");

const message = (key: string, role: ChatMessage["role"], content: string, streaming = false): ChatMessage => ({ key, role, content, citations: [], streaming, lowConfidence: false });

describe("the conversation's markdown while an answer streams in", () => {
  it("happy: each streamed token parses the streaming message again, and no other", () => {
    const { document } = parseHTML("<!doctype html><html><body><div id='log'></div></body></html>");
    vi.stubGlobal("document", document);
    try {
      const log = document.getElementById("log") as unknown as HTMLElement;
      const earlier = [message("m1", "bot", "Standard delivery takes **three to five** working days."), message("m2", "visitor", "And express?"), message("m3", "operator", "- Express: next day\n- Sunday: no")];
      const draw = (messages: ChatMessage[]) => render(h("div", null, messages.map((item) => h(Message, { key: item.key, message: item, strings: en }))), log);
      const tokens = ["Express ", "arrives ", "the next ", "**working** ", "day."];
      let streamed = "";
      draw([...earlier, message("m4", "bot", streamed, true)]);
      for (const token of tokens) {
        streamed += token;
        // As the session does: a new array, a new object for the streaming message, the others as they were.
        draw([...earlier, message("m4", "bot", streamed, true)]);
      }
      draw([...earlier, message("m4", "bot", streamed, false)]);

      expect(log.textContent).toContain("Express arrives the next working day.");
      expect(log.querySelectorAll("strong").length).toBe(2);
      const counts = new Map<string, number>();
      for (const source of parsed) counts.set(source, (counts.get(source) ?? 0) + 1);
      expect(counts.get(earlier[0]!.content)).toBe(1);
      expect(counts.get(earlier[2]!.content)).toBe(1);
      // The streaming message: once as it began (empty) and once per token; not again when it ends.
      expect(parsed.filter((source) => source !== earlier[0]!.content && source !== earlier[2]!.content)).toEqual(["", "Express ", "Express arrives ", "Express arrives the next ", "Express arrives the next **working** ", streamed]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
