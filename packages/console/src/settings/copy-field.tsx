import { useId, useState } from "react";

/** A secret or link to hand over: read-only, selected on focus, with a Copy button that says when it worked. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={value} spellCheck={false} onFocus={(event) => event.target.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p className="muted small" role="status">
        {copied === "yes" ? "Copied to the clipboard." : copied === "failed" ? "The browser refused; select the text and copy it." : ""}
      </p>
    </div>
  );
}
