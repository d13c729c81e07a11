import { crawlPatternListSchema } from "@frontdesk/contracts";
import { describe, expect, it } from "vitest";
import { urlPatternFilter, urlPatternsOf } from "../../src/sources/url-patterns.js";

describe("a sitemap's URL patterns", () => {
  const crawled = (include: string[], exclude: string[]) => urlPatternFilter({ include, exclude });

  it("happy: * is any run of characters, / included; the path and query are matched, never the host", () => {
    const filter = crawled(["/help/*", "/faq"], ["/help/internal/*", "*?print=*"]);
    expect(filter("https://shop.example/help/returns")).toBe(true);
    expect(filter("https://shop.example/help/a/b/c")).toBe(true);
    expect(filter("https://shop.example/faq")).toBe(true);
    expect(filter("https://shop.example/faq/more")).toBe(false);
    expect(filter("https://shop.example/help/internal/notes")).toBe(false);
    expect(filter("https://shop.example/help/returns?print=1")).toBe(false);
    expect(filter("https://shop.example/blog/help/x")).toBe(false);
    // Regular-expression characters stand for themselves.
    expect(crawled([], ["/a.b/(x)+"])("https://shop.example/a.b/(x)+")).toBe(false);
    expect(crawled([], ["/a.b/(x)+"])("https://shop.example/aXb/xx")).toBe(true);
    // No pattern: every page.
    expect(crawled([], [])("https://shop.example/anything")).toBe(true);
  });

  it("happy: a config without patterns, or with something else in their place, has none", () => {
    expect(urlPatternsOf({ url: "https://shop.example/sitemap.xml" })).toEqual({ include: [], exclude: [] });
    expect(urlPatternsOf({ include_patterns: "/x", exclude_patterns: ["/y", 3] })).toEqual({ include: [], exclude: ["/y"] });
  });

  it("error: a pattern must start with /, hold no space, no control character and no **; a list has no repeats and at most 50", () => {
    const messagesOf = (patterns: unknown) => {
      const result = crawlPatternListSchema.safeParse(patterns);
      return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    };
    expect(messagesOf(["/blog/*", "/help/*?lang=*"])).toEqual([]);
    expect(messagesOf(["blog/*"])).toEqual([expect.stringMatching(/^0: must start with \//)]);
    expect(messagesOf(["/a b"])).toEqual([expect.stringMatching(/^0: must not hold spaces/)]);
    expect(messagesOf(["/a\u0000"])).toEqual([expect.stringMatching(/^0: must not hold spaces or control/)]);
    expect(messagesOf(["/x/**"])).toEqual([expect.stringMatching(/^0: must not hold \*\*/)]);
    expect(messagesOf(["/a", "/a"])).toEqual([": must not repeat a pattern"]);
    expect(messagesOf(Array.from({ length: 51 }, (_, i) => `/p${i}`))).toEqual([": must hold at most 50 patterns"]);
    expect(messagesOf([`/${"a".repeat(200)}`])).toEqual([expect.stringMatching(/^0: must be at most 200/)]);
  });
});
