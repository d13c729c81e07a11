import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown, safeHref } from "../src/app/markdown.js";

const text = (value: string) => ({ kind: "text", text: value });

describe("the answers' markdown subset", () => {
  it("happy: paragraphs, bullet and numbered lists, bold, italic, code and links", () => {
    expect(parseMarkdown("Hello **there**.\n\n- one\n- *two*\n\n1. first\n2. [docs](https://example.com/a)\n\nUse `npm start`.")).toEqual([
      { kind: "paragraph", children: [text("Hello "), { kind: "strong", children: [text("there")] }, text(".")] },
      { kind: "list", ordered: false, items: [[text("one")], [{ kind: "em", children: [text("two")] }]] },
      { kind: "list", ordered: true, items: [[text("first")], [{ kind: "link", href: "https://example.com/a", children: [text("docs")] }]] },
      { kind: "paragraph", children: [text("Use "), { kind: "code", text: "npm start" }, text(".")] },
    ]);
  });

  it("happy: a line break inside a paragraph, a heading shown bold, a bare URL linked without its trailing full stop", () => {
    expect(parseMarkdown("## Delivery\nline one\nsee https://shop.example.com/help.")).toEqual([
      { kind: "paragraph", children: [{ kind: "strong", children: [text("Delivery")] }] },
      {
        kind: "paragraph",
        children: [text("line one"), { kind: "break" }, text("see "), { kind: "link", href: "https://shop.example.com/help", children: [text("https://shop.example.com/help")] }, text(".")],
      },
    ]);
  });

  it("happy: a half-streamed answer (an unclosed ** or link) shows as text until it closes", () => {
    expect(parseInline("Refunds take **five")).toEqual([text("Refunds take **five")]);
    // An unclosed link shows its label as typed (its URL may show linked until the link closes).
    expect(parseInline("see [the page](https://exa")[0]).toEqual(text("see [the page]("));
  });

  it("happy: stars inside words, underscores and snake_case are text", () => {
    expect(parseInline("2*3*4 and __init__ and snake_case_name")).toEqual([text("2*3*4 and __init__ and snake_case_name")]);
  });

  it("security: raw HTML stays text; javascript:, data: and relative links are not links (their label is kept)", () => {
    expect(parseInline('<img src=x onerror="alert(1)"><script>alert(2)</script>')).toEqual([text('<img src=x onerror="alert(1)"><script>alert(2)</script>')]);
    expect(parseInline("[a](javascript:alert(1)) [b](data:text/html,x) [c](/relative) [d](vbscript:x)")).toEqual([text("a) b c d")]);
    expect(parseInline("[mail](mailto:help@example.com)")).toEqual([{ kind: "link", href: "mailto:help@example.com", children: [text("mail")] }]);
  });

  it("security: safeHref accepts http(s) and mailto only", () => {
    expect(safeHref("https://example.com/x?y=1")).toBe("https://example.com/x?y=1");
    expect(safeHref("HTTP://EXAMPLE.com")).toBe("http://example.com/");
    expect(safeHref("mailto:a@b.c")).toBe("mailto:a@b.c");
    for (const refused of ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,x", "file:///etc/passwd", "/relative", "ftp://x", ""]) {
      expect(safeHref(refused), refused).toBeNull();
    }
  });
});
