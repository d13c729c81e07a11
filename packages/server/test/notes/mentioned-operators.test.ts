import { describe, expect, it } from "vitest";
import { mentionedOperators } from "../../src/notes/mentioned-operators.js";

const ana = { id: "op_ana", name: "Ana Lopez" };
const anabel = { id: "op_anabel", name: "Anabel" };
const jose = { id: "op_jose", name: "José  Martínez" };
const chen = { id: "op_chen", name: "陈 伟" };
const martaRuiz = { id: "op_mr", name: "Marta Ruiz" };
const martaGil = { id: "op_mg", name: "Marta Gil" };
const operators = [ana, anabel, jose, chen, martaRuiz, martaGil];

describe("@mentions in a note", () => {
  it("happy: a full name or a first name only one operator has, any case, each once, in order", () => {
    expect(mentionedOperators("@anabel and @ANA LOPEZ, then @ana again", operators)).toEqual([anabel, ana]);
    expect(mentionedOperators("@José Martínez! and @陈 伟", operators)).toEqual([jose, chen]);
    expect(mentionedOperators("line one\n@Marta\nGil please", operators)).toEqual([martaGil]);
  });

  it("error: a name running on, a shared first name, an address or nobody names nobody", () => {
    expect(mentionedOperators("@Anab look", operators)).toEqual([]);
    expect(mentionedOperators("@Marta can you look", operators)).toEqual([]);
    expect(mentionedOperators("write to ana@Ana Lopez.example", operators)).toEqual([]);
    expect(mentionedOperators("@ @@ @nobody", operators)).toEqual([]);
    expect(mentionedOperators("@Ana", [])).toEqual([]);
  });
});
