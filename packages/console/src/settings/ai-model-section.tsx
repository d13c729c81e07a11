import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import { api, ApiError, dataOf, describeError, type Schemas } from "../api/client.js";
import "./ai-model-section.css";

type Provider = Schemas["WorkspaceModelProvider"]["provider"];
type TestResult = Awaited<ReturnType<typeof runTest>>;

export const MODEL_PROVIDER_KEY = ["settings", "model-provider"] as const;

/** Local OpenAI-compatible servers' default addresses (contracts' openAiCompatiblePresets). */
const PRESETS = [
  { id: "ollama", label: "Ollama", baseUrl: "http://localhost:11434/v1" },
  { id: "vllm", label: "vLLM", baseUrl: "http://localhost:8000/v1" },
  { id: "lm-studio", label: "LM Studio", baseUrl: "http://localhost:1234/v1" },
] as const;

const PROVIDERS: { value: Provider; label: string }[] = [
  { value: "openai", label: "OpenAI" },
  { value: "anthropic", label: "Anthropic" },
  { value: "openai-compatible", label: "OpenAI-compatible server (Ollama, vLLM, LM Studio …)" },
];

interface Draft {
  provider: Provider;
  baseUrl: string;
  model: string;
  apiKey: string;
}

/** The body of PUT and of an unsaved test: an empty key field keeps the stored key (the server decides when it may). */
function bodyOf(draft: Draft) {
  return {
    provider: draft.provider,
    model: draft.model.trim(),
    ...(draft.baseUrl.trim() === "" ? {} : { base_url: draft.baseUrl.trim() }),
    ...(draft.apiKey.trim() === "" ? {} : { api_key: draft.apiKey.trim() }),
  };
}

async function runTest(draft: Draft) {
  return (await dataOf(api.POST("/api/v1/console/workspace/model-provider/test", { body: bodyOf(draft) }))).data;
}

function fieldError(error: unknown, field: string): string[] | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.fields?.[field] ?? error.fields?.[`body.${field}`];
}

function TestOutcome({ result }: { result: TestResult }) {
  if (result.ok) {
    return (
      <p className="ai-model-test ai-model-test-ok" role="status">
        {result.generator} answered in {result.latency_ms} ms{result.reply ? `: “${result.reply}”` : "."}
      </p>
    );
  }
  const error = result.error;
  return (
    <div className="ai-model-test ai-model-test-failed" role="alert">
      <p>
        {result.generator} failed{error?.status !== null && error?.status !== undefined ? ` with ${error.status}` : ""}: {error?.message}
      </p>
      {error?.body_excerpt && <pre className="small">{error.body_excerpt}</pre>}
    </div>
  );
}

/**
 * The workspace's AI model (admins): the provider, a preset for local servers, the base URL, a
 * write-only key field (the stored key is never sent back: only whether one is set and its last 4
 * characters), the model, Save, Remove and Test, which makes one small real call with what the
 * form holds and shows the provider's own error.
 */
export function AiModelSection() {
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: MODEL_PROVIDER_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/workspace/model-provider"))).data });
  const stored = settings.data?.workspace ?? null;
  const [draft, setDraft] = useState<Draft>({ provider: "openai", baseUrl: "", model: "", apiKey: "" });
  const [notice, setNotice] = useState("");
  useEffect(() => {
    if (stored) setDraft({ provider: stored.provider, baseUrl: stored.base_url ?? "", model: stored.model, apiKey: "" });
  }, [stored?.updated_at]);
  const change = (member: Partial<Draft>) => setDraft((current) => ({ ...current, ...member }));
  const save = useMutation({
    mutationFn: () => dataOf(api.PUT("/api/v1/console/workspace/model-provider", { body: bodyOf(draft) })),
    onSuccess: (answer) => {
      queryClient.setQueryData(MODEL_PROVIDER_KEY, answer.data);
      change({ apiKey: "" });
      setNotice(`Saved: agents answer with ${answer.data.workspace?.model ?? "the instance's model"} now.`);
    },
  });
  const remove = useMutation({
    mutationFn: () => dataOf(api.DELETE("/api/v1/console/workspace/model-provider")),
    onSuccess: () => {
      setDraft({ provider: "openai", baseUrl: "", model: "", apiKey: "" });
      setNotice("Removed: agents answer with the instance's model again.");
      void queryClient.invalidateQueries({ queryKey: MODEL_PROVIDER_KEY });
    },
  });
  const test = useMutation({ mutationFn: () => runTest(draft) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    test.reset();
    save.mutate();
  };
  const failure = save.error ?? test.error;
  const errors = { baseUrl: fieldError(failure, "base_url"), model: fieldError(failure, "model"), apiKey: fieldError(failure, "api_key") };
  const fieldProps = (field: keyof typeof errors) => ({
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `${id}-${field}-error` : undefined,
  });
  const errorOf = (field: keyof typeof errors) =>
    errors[field] && (
      <p id={`${id}-${field}-error`} className="error">
        {errors[field]!.join(", ")}
      </p>
    );
  const instance = settings.data?.instance_default;

  return (
    <section className="settings-card" aria-labelledby="ai-model-title">
      <h2 id="ai-model-title">AI model</h2>
      <p className="muted small">
        The model your agents answer with. Without one, they use this instance's{" "}
        {instance ? (instance.provider === "extractive" ? "offline extractive answerer" : `${instance.provider} model ${instance.model ?? ""}`) : "default"}. Each
        agent can also pick another model of this provider, or the offline answerer, in its settings.
      </p>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {settings.isPending && <p className="muted">Loading…</p>}
      {settings.isError && (
        <p className="error" role="alert">
          AI model: {describeError(settings.error)}
        </p>
      )}
      {settings.data && (
        <form className="settings-form ai-model-form" onSubmit={submit} aria-labelledby="ai-model-title">
          <label htmlFor={`${id}-provider`}>Provider</label>
          <select id={`${id}-provider`} value={draft.provider} onChange={(event) => change({ provider: event.target.value as Provider })}>
            {PROVIDERS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {draft.provider === "openai-compatible" && (
            <fieldset>
              <legend>Preset</legend>
              <div className="ai-model-presets">
                {PRESETS.map((preset) => (
                  <button key={preset.id} type="button" aria-pressed={draft.baseUrl === preset.baseUrl} onClick={() => change({ baseUrl: preset.baseUrl })}>
                    {preset.label}
                  </button>
                ))}
              </div>
              <p className="muted small">A server on this host or a private network needs FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS=true on the instance.</p>
            </fieldset>
          )}
          <label htmlFor={`${id}-base-url`}>Base URL{draft.provider === "openai-compatible" ? "" : " (optional)"}</label>
          <input
            id={`${id}-base-url`}
            type="url"
            value={draft.baseUrl}
            required={draft.provider === "openai-compatible"}
            placeholder={draft.provider === "anthropic" ? "https://api.anthropic.com/v1" : draft.provider === "openai" ? "https://api.openai.com/v1" : "http://localhost:11434/v1"}
            onChange={(event) => change({ baseUrl: event.target.value })}
            {...fieldProps("baseUrl")}
          />
          {errorOf("baseUrl")}
          <label htmlFor={`${id}-api-key`}>API key{draft.provider === "openai-compatible" ? " (optional)" : ""}</label>
          <input
            id={`${id}-api-key`}
            type="password"
            autoComplete="off"
            value={draft.apiKey}
            placeholder={stored?.api_key_set ? `Stored${stored.api_key_last4 ? ` (…${stored.api_key_last4})` : ""}: leave empty to keep it` : ""}
            onChange={(event) => change({ apiKey: event.target.value })}
            {...fieldProps("apiKey")}
          />
          {errorOf("apiKey")}
          <label htmlFor={`${id}-model`}>Model</label>
          <input
            id={`${id}-model`}
            value={draft.model}
            required
            maxLength={200}
            placeholder={draft.provider === "anthropic" ? "claude-haiku-4-5" : draft.provider === "openai" ? "gpt-4o-mini" : "llama3.1"}
            onChange={(event) => change({ model: event.target.value })}
            {...fieldProps("model")}
          />
          {errorOf("model")}
          {failure && (
            <p className="error" role="alert">
              {describeError(failure)}
            </p>
          )}
          <div className="row-actions">
            <button type="submit" className="primary" disabled={save.isPending || draft.model.trim() === ""}>
              Save
            </button>
            <button type="button" disabled={test.isPending || draft.model.trim() === ""} onClick={() => {
                save.reset();
                test.mutate();
              }}>
              {test.isPending ? "Testing…" : "Test"}
            </button>
            {stored && (
              <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
                Remove
              </button>
            )}
          </div>
          {test.data && <TestOutcome result={test.data} />}
        </form>
      )}
    </section>
  );
}
