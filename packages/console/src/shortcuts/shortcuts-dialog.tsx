import { Fragment, useEffect, useId, useRef, useState } from "react";
import { KEYBOARD_SHORTCUTS, useKeyboardShortcuts } from "./keyboard-shortcuts.js";
import "./shortcuts.css";

/**
 * The keyboard shortcuts, listed in a modal dialog opened by `?` (never while typing in a field)
 * or by its button: the browser's <dialog> keeps the focus inside, Escape closes it, and the focus
 * goes back where it was.
 */
export function ShortcutsDialog() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  useKeyboardShortcuts({ "?": () => setOpen(true) }, !open);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement;
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);
  const close = () => {
    setOpen(false);
    if (opener.current instanceof HTMLElement) opener.current.focus();
  };
  return (
    <>
      <button type="button" className="link-button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Keyboard shortcuts <kbd aria-hidden="true">?</kbd>
      </button>
      <dialog
        ref={dialog}
        className="shortcuts-dialog"
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault();
          close();
        }}>
        <h2 id={titleId}>Keyboard shortcuts</h2>
        <p className="muted">In the inbox, when the focus is not in a text box.</p>
        <dl className="shortcut-list">
          {KEYBOARD_SHORTCUTS.map((shortcut) => (
            <div key={shortcut.action}>
              <dt>
                {shortcut.keys.map((key, index) => (
                  <Fragment key={key}>
                    {index > 0 && " + "}
                    <kbd>{key}</kbd>
                  </Fragment>
                ))}
              </dt>
              <dd>{shortcut.action}</dd>
            </div>
          ))}
        </dl>
        <div className="confirm-actions">
          <button type="button" className="primary" onClick={close} autoFocus>
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}
