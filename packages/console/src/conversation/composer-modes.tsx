export type ComposerMode = "reply" | "note";

/**
 * Whether the composer writes to the visitor or a note for the team: two toggle buttons (one
 * pressed), so the choice is one Tab stop each and says which is on.
 */
export function ComposerModes({ mode, onChange }: { mode: ComposerMode; onChange(mode: ComposerMode): void }) {
  return (
    <div className="composer-modes" role="group" aria-label="Write">
      <button type="button" aria-pressed={mode === "reply"} onClick={() => onChange("reply")}>
        Reply <kbd aria-hidden="true">r</kbd>
      </button>
      <button type="button" aria-pressed={mode === "note"} className="note-mode" onClick={() => onChange("note")}>
        Internal note <kbd aria-hidden="true">n</kbd>
      </button>
    </div>
  );
}
