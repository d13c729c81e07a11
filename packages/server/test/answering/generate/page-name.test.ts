import { describe, expect, test } from "vitest";
import { pageName, type NamedPage } from "../../../src/answering/generate/page-name.js";

const page = (documentId: number, title: string, url = `https://shop.example/help/${documentId}`): NamedPage => ({ documentId, title, url });

describe("page name", () => {
  test("happy: a title without separators is the page's name as written", () => {
    expect(pageName(page(1, "Returns and refunds"), [])).toBe("Returns and refunds");
    expect(pageName(page(1, "  Will it fit? Accessory compatibility "), [])).toBe("Will it fit? Accessory compatibility");
  });

  test("happy: a part naming the page's host is dropped, at the end or at the start", () => {
    expect(pageName(page(1, "Returns | Acme Cycles", "https://www.acmecycles.co.uk/returns"), [])).toBe("Returns");
    expect(pageName(page(1, "1619 bursary fund - GOV.UK", "https://www.gov.uk/1619-bursary-fund"), [])).toBe("1619 bursary fund");
    expect(pageName(page(1, "Acme Cycles – Click & Collect", "https://acmecycles.example/collect"), [])).toBe("Click & Collect");
  });

  test("happy: a part the other retrieved pages' titles end with too is the site's name", () => {
    const retrieved = [page(1, "Returns | Help centre"), page(2, "Warranty | Help centre"), page(2, "Warranty | Help centre")];
    expect(pageName(retrieved[0]!, retrieved)).toBe("Returns");
    // Alone, nothing tells which part names the site: the title stays whole.
    expect(pageName(retrieved[0]!, [retrieved[0]!])).toBe("Returns | Help centre");
  });

  test("edge: middle parts keep their own separators; a title that is only the site's name stays; no title has no name", () => {
    expect(pageName(page(1, "Delivery - Express | Acme", "https://acme.example/express"), [])).toBe("Delivery - Express");
    expect(pageName(page(1, "Acme | Acme", "https://acme.example/"), [])).toBe("Acme");
    expect(pageName(page(1, "  "), [])).toBeNull();
  });
});
