import type { PresentOperator } from "./use-conversation-presence.js";

/** "Ana", "Ana and Bo", "Ana, Bo and Cy". */
function names(list: string[]): string {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** "Ana is typing…", "Ana and Bo are typing…", or "" when no colleague types. */
export function colleaguesTypingText(others: PresentOperator[]): string {
  const typing = others.filter((other) => other.typing).map((other) => other.name);
  if (typing.length === 0) return "";
  return `${names(typing)} ${typing.length === 1 ? "is" : "are"} typing…`;
}

/**
 * Who else has this conversation open: "Also here: Ana (viewing), Bo (typing)". A polite live
 * region present from the start (empty while nobody else is here), so arrivals are announced.
 */
export function AlsoHere({ others }: { others: PresentOperator[] }) {
  return (
    <p className="collision" aria-live="polite">
      {others.length > 0 && (
        <>
          <span className="collision-label">Also here:</span>{" "}
          {others.map((other, index) => (
            <span key={other.id} className="collision-member" data-typing={other.typing}>
              {other.name} ({other.typing ? "typing" : "viewing"}){index < others.length - 1 ? ", " : ""}
            </span>
          ))}
        </>
      )}
    </p>
  );
}
