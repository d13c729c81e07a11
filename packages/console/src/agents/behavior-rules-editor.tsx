import { FieldError, invalidProps } from "./field-errors.js";
import type { BehaviorRule } from "./use-agents.js";

type Trigger = BehaviorRule["trigger"];
type Action = BehaviorRule["action"];

const TRIGGERS: { type: Trigger["type"]; label: string }[] = [
  { type: "page", label: "The visitor is on a page" },
  { type: "time_on_page", label: "Time on the page" },
  { type: "scroll", label: "The visitor scrolls" },
  { type: "exit_intent", label: "The visitor is about to leave" },
];
const ACTIONS: { type: Action["type"]; label: string }[] = [
  { type: "open", label: "Open the widget" },
  { type: "message", label: "Show a message" },
  { type: "cta", label: "Show a button (call to action)" },
];

function triggerOf(type: Trigger["type"], previous: Trigger): Trigger {
  const url = "url" in previous ? previous.url : undefined;
  switch (type) {
    case "page":
      return { type, url: url ?? "/" };
    case "time_on_page":
      return { type, seconds: 30, ...(url ? { url } : {}) };
    case "scroll":
      return { type, percent: 50, ...(url ? { url } : {}) };
    case "exit_intent":
      return { type, ...(url ? { url } : {}) };
  }
}

function actionOf(type: Action["type"], previous: Action): Action {
  const text = "text" in previous ? previous.text : undefined;
  switch (type) {
    case "open":
      return { type };
    case "message":
      return { type, text: text ?? "" };
    case "cta":
      return { type, label: "", url: "", ...(text ? { text } : {}) };
  }
}

/** Only the messages of `field` itself, not of the members under it (those show beside their controls). */
const exactly = (fields: Record<string, string[]>, field: string) => (fields[field] ? { [field]: fields[field] } : {});

function nextRuleId(rules: BehaviorRule[]): string {
  let number = rules.length + 1;
  while (rules.some((rule) => rule.id === `rule-${number}`)) number += 1;
  return `rule-${number}`;
}

/** One rule: when (trigger, with its number and page pattern) → what (action, with its texts). */
function RuleEditor({
  rule,
  index,
  fields,
  ecommerce,
  onChange,
  onRemove,
}: {
  rule: BehaviorRule;
  index: number;
  fields: Record<string, string[]>;
  ecommerce: boolean;
  onChange: (rule: BehaviorRule) => void;
  onRemove: () => void;
}) {
  const base = `behavior_rules.${index}`;
  const id = `rule-${index}`;
  const { trigger, action } = rule;
  const setTrigger = (change: Partial<Record<string, string | number | undefined>>) => onChange({ ...rule, trigger: { ...trigger, ...change } as Trigger });
  const setAction = (change: Partial<Record<string, string | undefined>>) => {
    const next: Record<string, unknown> = { ...action, ...change };
    for (const key of Object.keys(next)) if (next[key] === undefined || (next[key] === "" && key !== "text" && key !== "label" && key !== "url")) delete next[key];
    onChange({ ...rule, action: next as Action });
  };
  const control = (name: string) => ({ id: `${id}-${name.replaceAll(".", "-")}`, ...invalidProps(fields, `${base}.${name}`, `${id}-${name.replaceAll(".", "-")}`) });
  const error = (name: string) => <FieldError fields={fields} field={`${base}.${name}`} id={`${id}-${name.replaceAll(".", "-")}`} />;
  return (
    <li className="rule">
      <fieldset>
        <legend>Rule {index + 1}</legend>
        <div className="field-row">
          <label htmlFor={`${id}-id`}>Name</label>
          <input {...control("id")} value={rule.id} onChange={(event) => onChange({ ...rule, id: event.target.value })} />
          {error("id")}
        </div>
        <div className="field-row">
          <label htmlFor={`${id}-trigger-type`}>When</label>
          <select id={`${id}-trigger-type`} value={trigger.type} onChange={(event) => onChange({ ...rule, trigger: triggerOf(event.target.value as Trigger["type"], trigger) })}>
            {TRIGGERS.map((option) => (
              <option key={option.type} value={option.type}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        {trigger.type === "time_on_page" && (
          <div className="field-row">
            <label htmlFor={`${id}-trigger-seconds`}>Seconds on the page</label>
            <input type="number" min={0} max={3600} {...control("trigger.seconds")} value={trigger.seconds} onChange={(event) => setTrigger({ seconds: event.target.valueAsNumber })} />
            {error("trigger.seconds")}
          </div>
        )}
        {trigger.type === "scroll" && (
          <div className="field-row">
            <label htmlFor={`${id}-trigger-percent`}>Scrolled (% of the page)</label>
            <input type="number" min={1} max={100} {...control("trigger.percent")} value={trigger.percent} onChange={(event) => setTrigger({ percent: event.target.valueAsNumber })} />
            {error("trigger.percent")}
          </div>
        )}
        <div className="field-row">
          <label htmlFor={`${id}-trigger-url`}>{trigger.type === "page" ? "Page (path or pattern)" : "Only on pages (optional)"}</label>
          <input
            {...control("trigger.url")}
            placeholder="/pricing, /blog/*"
            value={"url" in trigger ? (trigger.url ?? "") : ""}
            onChange={(event) => setTrigger({ url: trigger.type === "page" || event.target.value !== "" ? event.target.value : undefined })}
          />
          {error("trigger.url")}
        </div>
        <div className="field-row">
          <label htmlFor={`${id}-action-type`}>Then</label>
          <select id={`${id}-action-type`} value={action.type} onChange={(event) => onChange({ ...rule, action: actionOf(event.target.value as Action["type"], action) })}>
            {ACTIONS.map((option) => (
              <option key={option.type} value={option.type}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        {(action.type === "message" || action.type === "cta") && (
          <div className="field-row">
            <label htmlFor={`${id}-action-text`}>{action.type === "cta" ? "Message (optional)" : "Message"}</label>
            <input {...control("action.text")} value={action.text ?? ""} onChange={(event) => setAction({ text: action.type === "cta" && event.target.value === "" ? undefined : event.target.value })} />
            {error("action.text")}
          </div>
        )}
        {action.type === "cta" && (
          <>
            <div className="field-row">
              <label htmlFor={`${id}-action-label`}>Button label</label>
              <input {...control("action.label")} value={action.label} onChange={(event) => setAction({ label: event.target.value })} />
              {error("action.label")}
            </div>
            <div className="field-row">
              <label htmlFor={`${id}-action-url`}>Button link</label>
              <input type="url" {...control("action.url")} placeholder="https://" value={action.url} onChange={(event) => setAction({ url: event.target.value })} />
              {error("action.url")}
            </div>
            {(ecommerce || action.coupon !== undefined) && (
              <div className="field-row">
                <label htmlFor={`${id}-action-coupon`}>Coupon (optional)</label>
                <input {...control("action.coupon")} value={action.coupon ?? ""} onChange={(event) => setAction({ coupon: event.target.value === "" ? undefined : event.target.value })} />
                {error("action.coupon")}
              </div>
            )}
          </>
        )}
        {/* What no control above shows: the trigger or action as a whole. */}
        <FieldError fields={exactly(fields, `${base}.trigger`)} field={`${base}.trigger`} id={`${id}-trigger`} />
        <FieldError fields={exactly(fields, `${base}.action`)} field={`${base}.action`} id={`${id}-action`} />
        <FieldError fields={exactly(fields, base)} field={base} id={id} />
        <button type="button" onClick={onRemove}>
          Remove rule {index + 1}
        </button>
      </fieldset>
    </li>
  );
}

/** The proactive rules as a form: when → then, one fieldset per rule. */
export function BehaviorRulesEditor({
  rules,
  onChange,
  fields,
  ecommerce,
}: {
  rules: BehaviorRule[];
  onChange: (rules: BehaviorRule[]) => void;
  fields: Record<string, string[]>;
  ecommerce: boolean;
}) {
  return (
    <div className="rules-editor">
      {rules.length === 0 && <p className="muted">No rule: the widget waits for the visitor to open it.</p>}
      <ol>
        {rules.map((rule, index) => (
          <RuleEditor
            key={index}
            rule={rule}
            index={index}
            fields={fields}
            ecommerce={ecommerce}
            onChange={(changed) => onChange(rules.map((current, at) => (at === index ? changed : current)))}
            onRemove={() => onChange(rules.filter((_, at) => at !== index))}
          />
        ))}
      </ol>
      {rules.length < 20 && (
        <button type="button" onClick={() => onChange([...rules, { id: nextRuleId(rules), trigger: { type: "time_on_page", seconds: 30 }, action: { type: "open" } }])}>
          Add a rule
        </button>
      )}
      <FieldError fields={exactly(fields, "behavior_rules")} field="behavior_rules" id="behavior-rules" />
    </div>
  );
}
