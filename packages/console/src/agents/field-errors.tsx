import { ApiError } from "../api/client.js";

/** The server's 422 `fields` (a dotted path → its messages), or none. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  return error instanceof ApiError && error.fields ? error.fields : {};
}

/** The messages of `field` and of the members under it (`starter_prompts` also shows `starter_prompts.2`). */
export function messagesFor(fields: Record<string, string[]>, field: string): string[] {
  return Object.entries(fields)
    .filter(([name]) => name === field || name.startsWith(`${field}.`))
    .flatMap(([name, messages]) => messages.map((message) => (name === field ? message : `${name.slice(field.length + 1)}: ${message}`)));
}

/** The attributes tying a control to its error text, when it has one. */
export function invalidProps(fields: Record<string, string[]>, field: string, id: string) {
  return messagesFor(fields, field).length > 0 ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};
}

/** The server's words about one field, beside it. */
export function FieldError({ fields, field, id }: { fields: Record<string, string[]>; field: string; id: string }) {
  const messages = messagesFor(fields, field);
  if (messages.length === 0) return null;
  return (
    <span id={`${id}-error`} className="field-error">
      {messages.join("; ")}
    </span>
  );
}
