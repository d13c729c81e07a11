import { describe, expect, it } from "vitest";
import { loadOnFirstUse } from "../../src/startup/load-on-first-use.js";

describe("loadOnFirstUse", () => {
  it("happy: nothing loads before the first use; every later and concurrent use shares the one load", async () => {
    let loads = 0;
    const load = loadOnFirstUse(async () => ({ loaded: (loads += 1) }));
    expect(loads).toBe(0);
    const [first, second] = await Promise.all([load(), load()]);
    expect(first).toBe(second);
    expect(await load()).toBe(first);
    expect(loads).toBe(1);
  });

  it("error: a load that fails rejects its callers, and the next use loads again", async () => {
    let attempts = 0;
    const load = loadOnFirstUse(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("not there yet");
      return "loaded";
    });
    await expect(Promise.all([load(), load()])).rejects.toThrow("not there yet");
    expect(attempts).toBe(1);
    await expect(load()).resolves.toBe("loaded");
    expect(await load()).toBe("loaded");
    expect(attempts).toBe(2);
  });
});
