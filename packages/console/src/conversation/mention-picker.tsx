import { useQuery } from "@tanstack/react-query";
import type { RefObject } from "react";
import { api, dataOf, type Schemas } from "../api/client.js";
import { useOperator } from "../session.js";
import { OPERATORS_KEY } from "../settings/settings-keys.js";
import { useCaretPicker } from "./caret-picker.js";

type Colleague = Schemas["ConsoleOperator"];

/** `@` and the name typed after it up to the caret, at the start of the text or after a character that is no letter or digit (as the server reads mentions). */
const MENTION_BEFORE_CARET = /(?:^|[^\p{L}\p{N}])@([\p{L}\p{N}._'-]{0,32})$/u;
const MATCHES_SHOWN = 8;

/** Colleagues one of whose names starts with the query (case ignored), in the workspace's order. */
export function matchingColleagues(colleagues: readonly Colleague[], query: string, self: string): Colleague[] {
  const wanted = query.toLocaleLowerCase();
  return colleagues
    .filter((colleague) => colleague.id !== self && colleague.name.toLocaleLowerCase().split(/\s+/u).some((part) => part.startsWith(wanted)))
    .slice(0, MATCHES_SHOWN);
}

/**
 * `@Name` in the note box: typing `@` opens a list of the workspace's other operators, narrowed as
 * a name is typed; the chosen one is written out in full (`@Reed Park `), which the server reads as
 * that operator's mention and notifies (useCaretPicker carries the keys and the ARIA).
 */
export function useMentionPicker({ content, setContent, input }: { content: string; setContent(content: string): void; input: RefObject<HTMLTextAreaElement | null> }) {
  const self = useOperator();
  const colleagues = useQuery({ queryKey: OPERATORS_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/operators"))).data });
  return useCaretPicker<Colleague>({
    enabled: true,
    pattern: MENTION_BEFORE_CARET,
    matches: (query) => matchingColleagues(colleagues.data ?? [], query, self.id),
    keyOf: (colleague) => colleague.id,
    textOf: (colleague) => `@${colleague.name.trim().replace(/\s+/gu, " ")} `,
    listLabel: "Colleagues to mention",
    listClassName: "mention-list",
    announce: (count, query) =>
      `${count} ${count === 1 ? "colleague matches" : "colleagues match"} @${query}: Up and Down to choose, Enter to mention, Escape to close.`,
    renderOption: (colleague) => (
      <>
        <span className="saved-reply-title">{colleague.name}</span> <span className="saved-reply-scope">{colleague.email}</span>
      </>
    ),
    insertFailed: (reason) => `The mention could not be inserted: ${reason}`,
    content,
    setContent,
    input,
  });
}
