import type { TextBlock } from "./collect-text-blocks.js";
import type { ExtractedSection } from "./extracted-document.js";

export interface AssembledText {
  text: string;
  sections: ExtractedSection[];
}

/**
 * Writes blocks out as text (a blank line between paragraphs, a single line break between
 * consecutive lines) and cuts it into sections at every heading. A heading with nothing under it
 * before the next heading leaves no section; its line stays in `text`.
 */
export function assembleSections(blocks: readonly TextBlock[]): AssembledText {
  const sections: ExtractedSection[] = [];
  let heading: string | null = null;
  let sectionBlocks: TextBlock[] = [];

  const closeSection = (): void => {
    const text = renderBlocks(sectionBlocks);
    if (text !== "") sections.push({ heading, text });
    sectionBlocks = [];
  };

  for (const block of blocks) {
    if (block.kind === "heading") {
      closeSection();
      heading = block.text;
    } else {
      sectionBlocks.push(block);
    }
  }
  closeSection();
  return { text: renderBlocks(blocks), sections };
}

function renderBlocks(blocks: readonly TextBlock[]): string {
  let text = "";
  let previous: TextBlock | undefined;
  for (const block of blocks) {
    if (previous !== undefined) text += isSameLineGroup(previous, block) ? "\n" : "\n\n";
    text += block.text;
    previous = block;
  }
  return text;
}

function isSameLineGroup(previous: TextBlock, next: TextBlock): boolean {
  return previous.kind === "line" && next.kind === "line" && previous.group === next.group;
}
