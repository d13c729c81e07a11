import type { JSX } from "preact";
import { useMemo } from "preact/hooks";
import { parseMarkdown, type Inline } from "./markdown.js";

function InlineView({ nodes }: { nodes: Inline[] }): JSX.Element {
  return (
    <>
      {nodes.map((node, index) => {
        switch (node.kind) {
          case "text":
            return node.text;
          case "strong":
            return (
              <strong key={index}>
                <InlineView nodes={node.children} />
              </strong>
            );
          case "em":
            return (
              <em key={index}>
                <InlineView nodes={node.children} />
              </em>
            );
          case "code":
            return <code key={index}>{node.text}</code>;
          case "link":
            return (
              <a key={index} href={node.href} target="_blank" rel="noopener nofollow">
                <InlineView nodes={node.children} />
              </a>
            );
          case "break":
            return <br key={index} />;
        }
      })}
    </>
  );
}

/**
 * An answer in the markdown subset, as elements and text nodes (never HTML). Parsed again only when
 * its text changes: each streamed token re-renders the conversation, and only the message it went
 * into is parsed again.
 */
export function MarkdownView({ source }: { source: string }): JSX.Element {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return (
    <>
      {blocks.map((block, index) =>
        block.kind === "paragraph" ? (
          <p key={index}>
            <InlineView nodes={block.children} />
          </p>
        ) : block.ordered ? (
          <ol key={index}>
            {block.items.map((item, itemIndex) => (
              <li key={itemIndex}>
                <InlineView nodes={item} />
              </li>
            ))}
          </ol>
        ) : (
          <ul key={index}>
            {block.items.map((item, itemIndex) => (
              <li key={itemIndex}>
                <InlineView nodes={item} />
              </li>
            ))}
          </ul>
        ),
      )}
    </>
  );
}
