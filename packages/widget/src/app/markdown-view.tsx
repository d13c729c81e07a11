import type { JSX } from "preact";
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

/** An answer in the markdown subset, as elements and text nodes (never HTML). */
export function MarkdownView({ source }: { source: string }): JSX.Element {
  return (
    <>
      {parseMarkdown(source).map((block, index) =>
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
