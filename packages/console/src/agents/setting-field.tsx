import type { ReactNode } from "react";
import { FieldError, messagesFor } from "./field-errors.js";

interface CommonProps<Value extends string> {
  id: string;
  label: string;
  /** The field's name in the server's 422 `fields` (`persona_name`, `branding.url` …). */
  field: string;
  fields: Record<string, string[]>;
  value: Value;
  onChange: (value: Value) => void;
  hint?: string;
}

type SettingFieldProps<Value extends string> = CommonProps<Value> &
  (
    | { options?: undefined; type?: "text" | "url"; /** Shown before the text box (the colour picker). */ addon?: ReactNode }
    | { /** A list to choose from: [value, label]. */ options: readonly (readonly [Value, string])[] }
  );

/**
 * One setting of the agent form: its label, its text box or list, a hint, and the server's error
 * beside it (the control described by both, and marked invalid while the error stands).
 */
export function SettingField<Value extends string>(props: SettingFieldProps<Value>) {
  const { id, label, field, fields, value, onChange, hint } = props;
  const invalid = messagesFor(fields, field).length > 0;
  const describedBy = [hint ? `${id}-hint` : "", invalid ? `${id}-error` : ""].filter(Boolean).join(" ");
  const control = {
    id,
    value,
    // The list offers only `Value`s, and a text setting's `Value` is any string.
    onChange: (event: { target: { value: string } }) => onChange(event.target.value as Value),
    ...(invalid ? { "aria-invalid": true } : {}),
    ...(describedBy ? { "aria-describedby": describedBy } : {}),
  };
  let input: ReactNode;
  if (props.options) {
    input = (
      <select {...control}>
        {props.options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    );
  } else {
    input = <input type={props.type ?? "text"} {...control} />;
    if (props.addon) input = <div className="field-addon">{props.addon}{input}</div>;
  }
  return (
    <div className="field-row">
      <label htmlFor={id}>{label}</label>
      {input}
      {hint && (
        <span id={`${id}-hint`} className="muted hint">
          {hint}
        </span>
      )}
      <FieldError fields={fields} field={field} id={id} />
    </div>
  );
}
