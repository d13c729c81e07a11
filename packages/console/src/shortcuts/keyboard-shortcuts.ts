import { useEffect, useRef } from "react";

/** The console's keyboard shortcuts, as the dialog lists them (`?`). */
export const KEYBOARD_SHORTCUTS: readonly { keys: readonly string[]; action: string }[] = [
  { keys: ["j"], action: "Next conversation in the list" },
  { keys: ["k"], action: "Previous conversation in the list" },
  { keys: ["t"], action: "Take the conversation over" },
  { keys: ["r"], action: "Reply: go to the reply box" },
  { keys: ["n"], action: "Note: go to the internal note box" },
  { keys: ["h"], action: "Hand the conversation back to the assistant" },
  { keys: ["Shift", "C"], action: "Close the conversation" },
  { keys: ["/"], action: "In the reply box: insert a saved reply" },
  { keys: ["Esc"], action: "Leave the text box (the shortcuts work again)" },
  { keys: ["?"], action: "Show these shortcuts" },
];

/** Whether a key pressed there is typing: a text field, a select, an editable element. */
export function isTypingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file"].includes(target.type);
  return false;
}

/**
 * Calls `handlers[event.key]` for a key pressed anywhere in the page, unless it is typed in a
 * field, comes with Ctrl, Alt or Meta (the browser's and the system's), was handled already, or a
 * modal dialog is open (its own keys). `?` is Shift+/ on most layouts: keys are read as typed.
 */
export function useKeyboardShortcuts(handlers: Readonly<Record<string, (() => void) | undefined>>, enabled = true): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (isTypingIn(event.target) || document.querySelector("dialog[open]")) return;
      const handler = latest.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [enabled]);
}
