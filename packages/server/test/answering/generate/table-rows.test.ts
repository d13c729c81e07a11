import { describe, expect, it } from "vitest";
import { rowWithHeader } from "../../../src/answering/generate/table-rows.js";

describe("rowWithHeader", () => {
  it("happy: two columns read as the label and its value; more as each value with its column's name", () => {
    expect(rowWithHeader("Part | Warranty period", "Carbon frames | 5 years")).toBe("Carbon frames: 5 years");
    expect(rowWithHeader("Tyre type | Typical width | Pressure (psi)", "Road | 28mm | 65–80")).toBe("Road — Typical width: 28mm; Pressure (psi): 65–80");
  });

  it("happy: a header without the first column's name, and a label of figures alone, still read", () => {
    expect(rowWithHeader("Brookfield, Ashcombe, Westbury | Elmford", "Thursday | 9:00–20:00 | 10:00–17:30")).toBe(
      "Thursday — Brookfield, Ashcombe, Westbury: 9:00–20:00; Elmford: 10:00–17:30",
    );
    expect(rowWithHeader("Number of bikes | Discount", "10–24 | 12% off list price")).toBe("Number of bikes 10–24: 12% off list price");
  });

  it("edge: empty and dash cells are left out", () => {
    expect(rowWithHeader("Bike | Half day | Full day | Weekend", "Electric cargo bike | – | £60 | ")).toBe("Electric cargo bike — Full day: £60");
  });

  it("edge: a first row that may be data, not a header (no column it names holds a figure the row gives), gives null", () => {
    expect(rowWithHeader("Monday | 9:00–17:00", "Tuesday | 9:00–18:00")).toBeNull();
    expect(rowWithHeader("Road | 28mm | 65–80", "Gravel | 40mm | 35–50")).toBeNull();
    expect(rowWithHeader("Status | What's happening", "Received | We have your order.")).toBeNull();
  });

  it("edge: a header that does not fit the row, a row with one cell or no label, or nothing but dashes gives null", () => {
    expect(rowWithHeader("A | B | C | D", "x | 1")).toBeNull();
    expect(rowWithHeader("A | B", "x")).toBeNull();
    expect(rowWithHeader("A | B", "– | 1")).toBeNull();
    expect(rowWithHeader("A | B | C", "x | – | —")).toBeNull();
  });
});
