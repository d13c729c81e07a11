import { FieldError, invalidProps, messagesFor } from "./field-errors.js";

/** A list of short texts (starter prompts, origins): one input each, add and remove. */
export function ListEditor({
  id,
  legend,
  itemLabel,
  values,
  onChange,
  fields,
  field,
  placeholder,
  addLabel,
  max,
}: {
  id: string;
  legend: string;
  itemLabel: string;
  values: string[];
  onChange: (values: string[]) => void;
  fields: Record<string, string[]>;
  field: string;
  placeholder?: string;
  addLabel: string;
  max: number;
}) {
  const ownErrors = fields[field] ?? [];
  return (
    <fieldset className="list-editor">
      <legend>{legend}</legend>
      <ol>
        {values.map((value, index) => {
          const itemId = `${id}-${index}`;
          const itemField = `${field}.${index}`;
          return (
            <li key={index}>
              <label htmlFor={itemId} className="visually-hidden">
                {itemLabel} {index + 1}
              </label>
              <input
                id={itemId}
                value={value}
                placeholder={placeholder}
                onChange={(event) => onChange(values.map((current, at) => (at === index ? event.target.value : current)))}
                {...invalidProps({ [itemField]: fields[itemField] ?? [] }, itemField, itemId)}
              />
              <button type="button" onClick={() => onChange(values.filter((_, at) => at !== index))} aria-label={`Remove ${itemLabel.toLowerCase()} ${index + 1}`}>
                Remove
              </button>
              {messagesFor(fields, itemField).length > 0 && <FieldError fields={{ [itemField]: fields[itemField] ?? [] }} field={itemField} id={itemId} />}
            </li>
          );
        })}
      </ol>
      {values.length < max && (
        <button type="button" onClick={() => onChange([...values, ""])}>
          {addLabel}
        </button>
      )}
      {ownErrors.length > 0 && (
        <span id={`${id}-error`} className="field-error">
          {ownErrors.join("; ")}
        </span>
      )}
    </fieldset>
  );
}
