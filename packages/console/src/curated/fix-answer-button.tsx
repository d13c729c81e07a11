import type { ConsoleMessage } from "../conversation/merge-messages.js";
import { FixAnswerDialog, useDialogOpener } from "./fix-answer-dialog.js";

/** The visitor's message a bot reply answered: the last one before it in the transcript ("" when none is shown). */
export function questionAnsweredBy(messages: readonly ConsoleMessage[], reply: ConsoleMessage): string {
  const index = messages.indexOf(reply);
  for (let at = index - 1; at >= 0; at -= 1) if (messages[at]?.role === "visitor") return messages[at]!.content;
  return "";
}

/** "Fix this answer" on a bot reply: the curated answer's dialog, prefilled with the question it answered. */
export function FixAnswerButton({ reply, question }: { reply: Pick<ConsoleMessage, "id" | "content">; question: string }) {
  const dialog = useDialogOpener<true>();
  return (
    <>
      <button type="button" className="link-button fix-answer" aria-haspopup="dialog" onClick={(event) => dialog.show(true, event.currentTarget)}>
        Fix this answer
      </button>
      {dialog.open && <FixAnswerDialog draft={{ kind: "message", messageId: reply.id, question, answer: reply.content }} onClose={() => dialog.close()} />}
    </>
  );
}

/** The badge of a bot reply served from a curated answer. */
export function CuratedBadge() {
  return (
    <span className="badge badge-curated" title="An operator's curated answer">
      Curated
    </span>
  );
}
