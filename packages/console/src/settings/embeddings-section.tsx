import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { api, ApiError, dataOf, describeError, type Schemas } from "../api/client.js";
import { formatTime } from "./format-time.js";

type WorkspaceEmbeddings = Schemas["WorkspaceEmbeddings"];
type Provider = WorkspaceEmbeddings["active"]["provider"];

const EMBEDDINGS_KEY = ["settings", "embeddings"] as const;
/** How often the progress is read again while a re-embedding runs. */
const PROGRESS_REREAD_MS = 2000;

const PROVIDERS: { value: Provider; label: string }[] = [
  { value: "default", label: "The instance's default" },
  { value: "hashing", label: "Hashing (offline, no model)" },
  { value: "local", label: "Local model (MiniLM, on this server)" },
  { value: "openai-compatible", label: "OpenAI-compatible server (OpenAI, Ollama, vLLM, LM Studio…)" },
];

const labelOf = (provider: Provider) => PROVIDERS.find((option) => option.value === provider)?.label ?? provider;

function ChooseEmbeddingsForm({ current }: { current: WorkspaceEmbeddings }) {
  const queryClient = useQueryClient();
  const id = useId();
  const shown = current.reembedding ?? current.active;
  const [provider, setProvider] = useState<Provider>(shown.provider);
  const [baseUrl, setBaseUrl] = useState(shown.base_url ?? "");
  const [model, setModel] = useState(shown.model ?? "");
  const [dimensions, setDimensions] = useState(shown.dimensions === null ? "" : String(shown.dimensions));
  const [apiKey, setApiKey] = useState("");
  const save = useMutation({
    mutationFn: () =>
      dataOf(
        api.PUT("/api/v1/console/embeddings", {
          body:
            provider === "openai-compatible"
              ? { provider, base_url: baseUrl.trim(), model: model.trim(), ...(dimensions ? { dimensions: Number(dimensions) } : {}), ...(apiKey ? { api_key: apiKey } : {}) }
              : { provider },
        }),
      ),
    onSuccess: (answer) => {
      setApiKey("");
      queryClient.setQueryData(EMBEDDINGS_KEY, answer.data);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const fields = save.error instanceof ApiError ? save.error.fields : undefined;
  const errorOf = (name: string) => fields?.[name] ?? fields?.[`body.${name}`];
  const field = (name: string, label: string, input: ReactNode) => {
    const problem = errorOf(name);
    return (
      <>
        <label htmlFor={`${id}-${name}`}>{label}</label>
        {input}
        {problem && (
          <p id={`${id}-${name}-error`} className="error">
            {problem.join(", ")}
          </p>
        )}
      </>
    );
  };
  const described = (name: string) => (errorOf(name) ? { "aria-invalid": true, "aria-describedby": `${id}-${name}-error` } : {});
  return (
    <form className="settings-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Choose the embeddings provider</h3>
      {field(
        "provider",
        "Provider",
        <select id={`${id}-provider`} value={provider} onChange={(event) => setProvider(PROVIDERS.find((option) => option.value === event.target.value)?.value ?? "default")} {...described("provider")}>
          {PROVIDERS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>,
      )}
      {provider === "openai-compatible" && (
        <>
          {field(
            "base_url",
            "Base URL",
            <input id={`${id}-base_url`} type="url" required maxLength={2000} placeholder="http://localhost:11434/v1" value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} {...described("base_url")} />,
          )}
          {field("model", "Model", <input id={`${id}-model`} required maxLength={200} placeholder="nomic-embed-text" value={model} onChange={(event) => setModel(event.target.value)} {...described("model")} />)}
          {field(
            "dimensions",
            "Dimensions (unless an OpenAI model)",
            <input id={`${id}-dimensions`} type="number" min={1} max={16000} value={dimensions} onChange={(event) => setDimensions(event.target.value)} {...described("dimensions")} />,
          )}
          {field(
            "api_key",
            shown.api_key_set ? "API key (leave empty to keep the stored one)" : "API key (optional)",
            <input id={`${id}-api_key`} type="password" autoComplete="off" maxLength={1000} value={apiKey} onChange={(event) => setApiKey(event.target.value)} {...described("api_key")} />,
          )}
        </>
      )}
      {save.error && !fields && (
        <p className="error" role="alert">
          {describeError(save.error)}
        </p>
      )}
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save and re-embed"}
      </button>
    </form>
  );
}

function Progress({ embeddings }: { embeddings: WorkspaceEmbeddings }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => dataOf(api.POST("/api/v1/console/embeddings/retry")),
    onSuccess: (answer) => queryClient.setQueryData(EMBEDDINGS_KEY, answer.data),
  });
  const pending = embeddings.reembedding;
  if (!pending) return null;
  const percent = pending.total === 0 ? 100 : Math.floor((pending.done / pending.total) * 100);
  return (
    <div className="embeddings-progress" role="group" aria-label="Re-embedding">
      <p>
        Re-embedding with <strong>{labelOf(pending.provider)}</strong> ({pending.embedder}) since {formatTime(pending.started_at)}. Answers keep using the current
        vectors until it is complete.
      </p>
      <progress max={pending.total || 1} value={pending.total === 0 ? 1 : pending.done} aria-label="Chunks re-embedded">
        {percent} %
      </progress>
      <p className="small">
        {pending.done} of {pending.total} chunks ({percent} %)
      </p>
      {pending.state === "failed" && (
        <div role="alert" className="error">
          <p>The re-embedding stopped: {pending.error?.message ?? "the provider failed"}</p>
          <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending}>
            Retry
          </button>
        </div>
      )}
      {retry.error && <p className="error">{describeError(retry.error)}</p>}
    </div>
  );
}

/** Embeddings: which provider makes the workspace's vectors, and a re-embedding's progress (admins only; the server says so to others). */
export function EmbeddingsSection() {
  const embeddings = useQuery({
    queryKey: EMBEDDINGS_KEY,
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/embeddings"))).data,
    refetchInterval: (query) => (query.state.data?.reembedding?.state === "running" ? PROGRESS_REREAD_MS : false),
  });
  const active = embeddings.data?.active;
  return (
    <section className="settings-card" aria-labelledby="embeddings-title">
      <h2 id="embeddings-title">Embeddings</h2>
      <p className="muted small">
        The model that turns your knowledge and visitors' questions into vectors for search. Changing it re-embeds every page in the background; answers
        keep using the current vectors until the new ones are complete.
      </p>
      {embeddings.isPending && <p className="muted">Loading…</p>}
      {embeddings.isError && (
        <p className="error" role="alert">
          Embeddings: {describeError(embeddings.error)}
        </p>
      )}
      {active && embeddings.data && (
        <>
          <p role="status">
            In use: <strong>{labelOf(active.provider)}</strong> ({active.embedder}
            {active.model ? `, ${active.base_url}` : ""}){active.since ? ` since ${formatTime(active.since)}` : ""}.
          </p>
          <Progress embeddings={embeddings.data} />
          <ChooseEmbeddingsForm key={embeddings.data.reembedding?.embedder ?? active.embedder} current={embeddings.data} />
        </>
      )}
    </section>
  );
}
