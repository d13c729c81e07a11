import { describe, expect, it } from "vitest";
import { unitVectorIntegers, vectorLiteral } from "../../src/db/vector-literal.js";

describe("vector parameters", () => {
  it("happy: a vector to store is its unit direction times 2^24, rounded, as a Postgres integer array", () => {
    expect(unitVectorIntegers([3, 4])).toBe("{10066330,13421773}");
    expect(unitVectorIntegers(Float32Array.from([0, -2, 0]))).toBe(`{0,-${2 ** 24},0}`);
  });

  it("error: non-finite components become 0 and a zero vector stays zero", () => {
    expect(unitVectorIntegers([Number.NaN, 1, Number.POSITIVE_INFINITY])).toBe(`{0,${2 ** 24},0}`);
    expect(unitVectorIntegers([0, 0])).toBe("{0,0}");
    expect(vectorLiteral([1, Number.NaN])).toBe("[1,0]");
  });
});
