import { useId, useState, type FormEvent } from "react";
import { describeError } from "../api/client.js";
import { FieldError, fieldErrorsOf, invalidProps } from "../agents/field-errors.js";
import type { useAnswerTestMutations } from "./use-answer-tests.js";

type Kind = "url" | "text" | "unsure";
const KINDS: { kind: Kind; label: string }[] = [
  { kind: "url", label: "Cites a page" },
  { kind: "text", label: "Contains a phrase" },
  { kind: "unsure", label: "Says it does not know" },
];

/** The form that adds one test: its question and what a right answer must do (the server's 422 beside each field). */
export function AddTestForm({ agentId, create }: { agentId: string; create: ReturnType<typeof useAnswerTestMutations>["create"] }) {
  const id = useId();
  const [question, setQuestion] = useState("");
  const [kind, setKind] = useState<Kind>("url");
  const [value, setValue] = useState("");
  const [added, setAdded] = useState<string | null>(null);
  const fields = fieldErrorsOf(create.error);
  const valueField = kind === "url" ? "expect_url" : "expect_text";
  const known = ["question", "expect_url", "expect_text", "expect_unsure"];
  const generalError = create.error && !Object.keys(fields).some((name) => known.includes(name)) ? describeError(create.error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(null);
    const expectation = kind === "unsure" ? { expect_unsure: true as const } : kind === "url" ? { expect_url: value } : { expect_text: value };
    create.mutate(
      { agent_id: agentId, question, ...expectation },
      {
        onSuccess: () => {
          setAdded("Test added.");
          setQuestion("");
          setValue("");
        },
      },
    );
  };

  return (
    <form className="answer-tests-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add a test</h2>
      <div className="knowledge-field">
        <label htmlFor={`${id}-question`}>Question</label>
        <input id={`${id}-question`} value={question} maxLength={1000} onChange={(event) => setQuestion(event.target.value)} {...invalidProps(fields, "question", `${id}-question`)} />
        <FieldError fields={fields} field="question" id={`${id}-question`} />
      </div>
      <fieldset className="kind-choice">
        <legend>A right answer</legend>
        {KINDS.map((option) => (
          <label key={option.kind}>
            <input
              type="radio"
              name={`${id}-kind`}
              value={option.kind}
              checked={kind === option.kind}
              onChange={() => {
                setKind(option.kind);
                create.reset();
              }}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {kind !== "unsure" && (
        <div className="knowledge-field">
          <label htmlFor={`${id}-value`}>{kind === "url" ? "Page (an address, or a path such as /returns)" : "Phrase"}</label>
          <input id={`${id}-value`} value={value} onChange={(event) => setValue(event.target.value)} {...invalidProps(fields, valueField, `${id}-value`)} />
          <FieldError fields={fields} field={valueField} id={`${id}-value`} />
        </div>
      )}
      <div className="knowledge-form-actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add test"}
        </button>
        <span role="status" className="muted">
          {added}
        </span>
      </div>
      {generalError && (
        <p className="error" role="alert">
          {generalError}
        </p>
      )}
    </form>
  );
}
