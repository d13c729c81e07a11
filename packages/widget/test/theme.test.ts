import { describe, expect, it } from "vitest";
import { contrastRatio, themeColours, themeCss } from "../src/app/theme.js";

describe("the agent's colours", () => {
  it("happy: the text on the primary colour is white or black, whichever contrasts more, and always at least 4.5:1", () => {
    expect(themeColours("#112233")).toEqual({ primary: "#112233", onPrimary: "#ffffff" });
    expect(themeColours("#2563eb")).toEqual({ primary: "#2563eb", onPrimary: "#ffffff" });
    expect(themeColours("#facc15")).toEqual({ primary: "#facc15", onPrimary: "#000000" });
    expect(themeColours("#FFF")).toEqual({ primary: "#FFF", onPrimary: "#000000" });
    // Every grey, and every colour of a coarse grid over the RGB cube (mid-greys are the hardest case).
    const hex = (value: number) => value.toString(16).padStart(2, "0");
    const colours = Array.from({ length: 256 }, (_, grey) => `#${hex(grey).repeat(3)}`);
    for (let r = 0; r < 256; r += 17) for (let g = 0; g < 256; g += 17) for (let b = 0; b < 256; b += 17) colours.push(`#${hex(r)}${hex(g)}${hex(b)}`);
    for (const colour of colours) {
      const { onPrimary } = themeColours(colour);
      expect(contrastRatio(colour, onPrimary), colour).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("security: anything but a hex colour goes into no stylesheet (the default is used)", () => {
    for (const hostile of ["red;}*{display:none", "#fff}:host{display:none", "url(https://x)", "expression(alert(1))", "#12345", ""]) {
      expect(themeCss(hostile), hostile).toBe(".fd{--fd-primary:#1f2937;--fd-on-primary:#ffffff}");
    }
  });
});
