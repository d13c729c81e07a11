import { useEffect, useId, useState, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { describeError } from "../api/client.js";

/** The token typed up to the caret (its one-character trigger, then the query `pattern`'s group 1 holds): where it starts, and its query. */
export function tokenAt(pattern: RegExp, text: string, caret: number): { start: number; query: string } | null {
  const match = pattern.exec(text.slice(0, caret));
  if (!match) return null;
  const query = match[1] ?? "";
  return { start: caret - query.length - 1, query };
}

export interface CaretPickerOptions<Item> {
  /** False: no token is looked for, and no list opens. */
  enabled: boolean;
  /** Matches the text before the caret while a token is typed there (`/shortcut`, `@Name`). */
  pattern: RegExp;
  /** The items offered for the query, best first. */
  matches(query: string): Item[];
  keyOf(item: Item): string;
  /** The text that replaces the token once an item is chosen. */
  textOf(item: Item): Promise<string> | string;
  listLabel: string;
  listClassName: string;
  /** What the polite live region says when the list opens. */
  announce(count: number, query: string): string;
  renderOption(item: Item): ReactNode;
  insertFailed(reason: string): string;
  content: string;
  setContent(content: string): void;
  input: RefObject<HTMLTextAreaElement | null>;
}

/**
 * A list that opens in a textarea while a token is typed at the caret: Up and Down move through
 * its options, Enter (or Tab) replaces the token with the chosen one's text, Escape closes it. The
 * textarea keeps its own role (ARIA in HTML allows none other on a textarea, and `aria-expanded` is
 * not a textbox's), so the combobox pattern is carried by what a textbox may hold:
 * `aria-autocomplete="list"`, `aria-controls` the listbox, `aria-activedescendant` the option; a
 * polite live region says when the list opens and how to use it.
 */
export function useCaretPicker<Item>(options: CaretPickerOptions<Item>) {
  const { content, setContent, input } = options;
  const listId = useId();
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [inserting, setInserting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [caretAfterInsert, setCaretAfterInsert] = useState<number | null>(null);

  const token = options.enabled ? tokenAt(options.pattern, content, caret) : null;
  const matches = token ? options.matches(token.query) : [];
  const open = token !== null && dismissedAt !== token.start && matches.length > 0 && !inserting;
  const activeIndex = Math.min(active, Math.max(matches.length - 1, 0));

  useEffect(() => setActive(0), [token?.query, token?.start]);
  useEffect(() => {
    if (token === null) setDismissedAt(null);
  }, [token === null]);
  useEffect(() => {
    if (caretAfterInsert === null) return;
    input.current?.setSelectionRange(caretAfterInsert, caretAfterInsert);
    setCaret(caretAfterInsert);
    setCaretAfterInsert(null);
  }, [caretAfterInsert]);

  const track = () => setCaret(input.current?.selectionStart ?? content.length);

  const choose = async (item: Item) => {
    if (!token) return;
    setInserting(true);
    setProblem(null);
    try {
      const text = await options.textOf(item);
      setContent(content.slice(0, token.start) + text + content.slice(caret));
      setCaretAfterInsert(token.start + text.length);
    } catch (failure) {
      setProblem(options.insertFailed(describeError(failure)));
    } finally {
      setInserting(false);
      input.current?.focus();
    }
  };

  /** Handles the listbox's keys while it is open; true when the key was the picker's. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    switch (event.key) {
      case "ArrowDown":
        setActive((activeIndex + 1) % matches.length);
        break;
      case "ArrowUp":
        setActive((activeIndex - 1 + matches.length) % matches.length);
        break;
      case "Enter":
      case "Tab":
        void choose(matches[activeIndex]!);
        break;
      case "Escape":
        setDismissedAt(token.start);
        break;
      default:
        return false;
    }
    event.preventDefault();
    return true;
  };

  const optionId = (index: number) => `${listId}-option-${index}`;
  const inputProps = {
    "aria-autocomplete": "list" as const,
    "aria-controls": open ? listId : undefined,
    "aria-activedescendant": open ? optionId(activeIndex) : undefined,
    onKeyUp: track,
    onClick: track,
    onSelect: track,
  };
  const status = open ? options.announce(matches.length, token.query) : (problem ?? "");

  const popup = (
    <>
      {open && (
        <ul id={listId} role="listbox" aria-label={options.listLabel} className={`caret-picker-list ${options.listClassName}`}>
          {matches.map((item, index) => (
            <li
              key={options.keyOf(item)}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              className={index === activeIndex ? "active" : undefined}
              onMouseDown={(event) => {
                // Keep the focus in the textarea: the choice is made on the option, the typing goes on there.
                event.preventDefault();
                void choose(item);
              }}>
              {options.renderOption(item)}
            </li>
          ))}
        </ul>
      )}
      {/* A live region without the status role: the console's one `status` is its connection. */}
      <p aria-live="polite" className={problem && !open ? "error" : "visually-hidden"}>
        {status}
      </p>
    </>
  );
  return { onKeyDown, inputProps, popup, track };
}
