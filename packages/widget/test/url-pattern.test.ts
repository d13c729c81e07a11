import { describe, expect, it } from "vitest";
import { matchesUrlPattern } from "../src/app/engagement/url-pattern.js";

const at = (url: string) => new URL(url);

describe("a proactive rule's URL pattern", () => {
  it("happy: a path matches the page's path, whatever its query; * is any run of characters", () => {
    expect(matchesUrlPattern("/pricing", at("https://shop.test/pricing"))).toBe(true);
    expect(matchesUrlPattern("/pricing", at("https://shop.test/pricing?plan=pro"))).toBe(true);
    expect(matchesUrlPattern("/pricing", at("https://shop.test/pricing/team"))).toBe(false);
    expect(matchesUrlPattern("/blog/*", at("https://shop.test/blog/spring-sale"))).toBe(true);
    expect(matchesUrlPattern("/blog/*", at("https://shop.test/blogs"))).toBe(false);
    expect(matchesUrlPattern("*checkout*", at("https://shop.test/cart/checkout/step-2"))).toBe(true);
  });

  it("happy: a pattern with a query matches it; a whole URL matches the whole URL (host included, case-insensitively)", () => {
    expect(matchesUrlPattern("/search?q=*", at("https://shop.test/search?q=bikes"))).toBe(true);
    expect(matchesUrlPattern("/search?q=*", at("https://shop.test/search"))).toBe(false);
    expect(matchesUrlPattern("https://shop.test/sale*", at("https://SHOP.test/sale/bikes"))).toBe(true);
    expect(matchesUrlPattern("https://shop.test/sale*", at("https://other.test/sale"))).toBe(false);
  });

  it("security: the pattern's other characters are literal, never a regular expression", () => {
    expect(matchesUrlPattern("/a.c", at("https://shop.test/abc"))).toBe(false);
    expect(matchesUrlPattern("/(x|y)", at("https://shop.test/x"))).toBe(false);
    expect(matchesUrlPattern("/(x|y)", at("https://shop.test/(x%7Cy)"))).toBe(false);
    expect(matchesUrlPattern("/price+", at("https://shop.test/price+"))).toBe(true);
  });
});
