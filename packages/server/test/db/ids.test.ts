import { describe, expect, it } from "vitest";
import { newId, randomBase62 } from "../../src/db/ids.js";

describe("ids", () => {
  it("happy: random base62 strings of the asked length, all distinct across many refills of the byte pool", () => {
    const drawn = Array.from({ length: 5000 }, (_, index) => randomBase62(10 + (index % 20)));
    drawn.forEach((value, index) => expect(value).toMatch(new RegExp(`^[0-9a-zA-Z]{${10 + (index % 20)}}$`)));
    expect(new Set(drawn).size).toBe(drawn.length);
  });

  it("happy: every base62 character turns up (no byte value is lost to the pool)", () => {
    const seen = new Set(randomBase62(20_000));
    expect(seen.size).toBe(62);
  });

  it("happy: ids carry their prefix and sort by time", () => {
    const first = newId("cnv");
    const later = newId("cnv");
    expect(first).toMatch(/^cnv_[0-9a-zA-Z]{22}$/);
    expect(first.slice(4, 12) <= later.slice(4, 12)).toBe(true);
  });
});
