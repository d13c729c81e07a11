import type { Schemas } from "../api/client.js";
import { FieldError, messagesFor } from "./field-errors.js";
import { SettingField } from "./setting-field.js";
import type { ConsoleAgent } from "./use-agents.js";

type UpdateBody = Schemas["UpdateConsoleAgentRequest"];
type Length = "short" | "medium" | "long";
type WhenUnsure = "offer_person" | "say_unknown";

/** How the agent answers, as the form holds it: a model choice and, for "another model", its name. */
export interface AnsweringDraft {
  choice: "default" | "extractive" | "named";
  modelName: string;
  rules: string;
  length: Length;
  whenUnsure: WhenUnsure;
}

const MAX_RULES = 2000;

export function answeringDraftOf(agent: ConsoleAgent): AnsweringDraft {
  const model = agent.answer_model;
  return {
    choice: model === "default" || model === "extractive" ? model : "named",
    modelName: model === "default" || model === "extractive" ? "" : model,
    rules: agent.instructions.rules,
    length: agent.instructions.length,
    whenUnsure: agent.instructions.when_unsure,
  };
}

export function answeringBodyOf(draft: AnsweringDraft): Pick<UpdateBody, "answer_model" | "instructions"> {
  return {
    answer_model: draft.choice === "named" ? draft.modelName.trim() : draft.choice,
    instructions: { rules: draft.rules, length: draft.length, when_unsure: draft.whenUnsure },
  };
}

const CHOICES = [
  ["default", "The workspace's model"],
  ["extractive", "Offline answerer (no model)"],
  ["named", "Another model…"],
] as const;
const LENGTHS = [
  ["short", "Short: a sentence or two"],
  ["medium", "Medium: a few sentences"],
  ["long", "Long: a detailed answer"],
] as const;
const UNSURE = [
  ["offer_person", "Offer a person"],
  ["say_unknown", "Say it doesn't know"],
] as const;

/** The agent's answer model and its instructions to the model; the server's 422 fields beside each control. */
export function AnsweringEditor({ draft, onChange, fields }: { draft: AnsweringDraft; onChange: (draft: AnsweringDraft) => void; fields: Record<string, string[]> }) {
  const set = <K extends keyof AnsweringDraft>(key: K) => (value: AnsweringDraft[K]) => onChange({ ...draft, [key]: value });
  const rulesInvalid = messagesFor(fields, "instructions.rules").length > 0;
  return (
    <fieldset>
      <legend>Answers</legend>
      <SettingField id="agent-answer-model" label="Answer model" field="answer_model" fields={choiceFields(fields, draft)} value={draft.choice} onChange={set("choice")} options={CHOICES} hint="The workspace's model is set in Settings → AI model (else the instance's); another model is one of that provider's." />
      {draft.choice === "named" && (
        <SettingField id="agent-model-name" label="Model name" field="answer_model" fields={fields} value={draft.modelName} onChange={set("modelName")} hint="As the provider names it, e.g. gpt-4o, claude-sonnet-4-5, llama3.1:8b." />
      )}
      <div className="field-row">
        <label htmlFor="agent-instructions">Instructions to the model</label>
        <textarea
          id="agent-instructions"
          rows={4}
          maxLength={MAX_RULES}
          value={draft.rules}
          placeholder="For example: Always mention free returns within 30 days. Never quote prices."
          aria-describedby={`agent-instructions-hint${rulesInvalid ? " agent-instructions-error" : ""}`}
          {...(rulesInvalid ? { "aria-invalid": true } : {})}
          onChange={(event) => set("rules")(event.target.value)}
        />
        <span id="agent-instructions-hint" className="muted hint">
          Extra rules, at most {MAX_RULES} characters ({draft.rules.length} used). The offline answerer follows the length only.
        </span>
        <FieldError fields={fields} field="instructions.rules" id="agent-instructions" />
      </div>
      <SettingField id="agent-answer-length" label="Answer length" field="instructions.length" fields={fields} value={draft.length} onChange={set("length")} options={LENGTHS} />
      <SettingField id="agent-when-unsure" label="When it is unsure" field="instructions.when_unsure" fields={fields} value={draft.whenUnsure} onChange={set("whenUnsure")} options={UNSURE} hint="When the knowledge does not hold the answer: offer a person, or just say so (a person only when asked)." />
    </fieldset>
  );
}

/** The model name's error is shown beside its own box when it is there, else beside the choice. */
function choiceFields(fields: Record<string, string[]>, draft: AnsweringDraft): Record<string, string[]> {
  return draft.choice === "named" ? {} : fields;
}
