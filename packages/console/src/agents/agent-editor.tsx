import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, dataOf, describeError, type Schemas } from "../api/client.js";
import { BehaviorRulesEditor } from "./behavior-rules-editor.js";
import { FieldError, fieldErrorsOf, invalidProps } from "./field-errors.js";
import { InstallSnippet, snippetQueryKey } from "./install-snippet.js";
import { ListEditor } from "./list-editor.js";
import { AGENTS_QUERY_KEY, agentQueryKey, type BehaviorRule, type ConsoleAgent } from "./use-agents.js";
import { WidgetPreview } from "./widget-preview.js";

type UpdateBody = Schemas["UpdateConsoleAgentRequest"];
type DisplayMode = "logo_and_label" | "logo_only" | "label_only";

interface Draft {
  name: string;
  vertical: "general" | "ecommerce";
  language: string;
  personaName: string;
  tone: string;
  primaryColor: string;
  starterPrompts: string[];
  origins: string[];
  behaviorRules: BehaviorRule[];
  brandingShow: "default" | "show" | "hide";
  brandingLabel: string;
  brandingUrl: string;
  brandingLogoUrl: string;
  brandingDisplayMode: DisplayMode | "";
}

function draftOf(agent: ConsoleAgent): Draft {
  const overrides = agent.branding_overrides;
  return {
    name: agent.name,
    vertical: agent.vertical,
    language: agent.language_default,
    personaName: agent.persona.name,
    tone: agent.persona.tone,
    primaryColor: agent.theme.primary,
    starterPrompts: agent.starter_prompts,
    origins: agent.allowed_origins,
    behaviorRules: agent.behavior_rules,
    brandingShow: overrides.show === undefined ? "default" : overrides.show ? "show" : "hide",
    brandingLabel: overrides.label ?? "",
    brandingUrl: overrides.url ?? "",
    brandingLogoUrl: overrides.logo_url ?? "",
    brandingDisplayMode: overrides.display_mode ?? "",
  };
}

function bodyOf(draft: Draft): UpdateBody {
  const branding: NonNullable<UpdateBody["branding"]> = {};
  if (draft.brandingShow !== "default") branding.show = draft.brandingShow === "show";
  if (draft.brandingLabel.trim()) branding.label = draft.brandingLabel.trim();
  if (draft.brandingUrl.trim()) branding.url = draft.brandingUrl.trim();
  if (draft.brandingLogoUrl.trim()) branding.logo_url = draft.brandingLogoUrl.trim();
  if (draft.brandingDisplayMode) branding.display_mode = draft.brandingDisplayMode;
  return {
    name: draft.name,
    vertical: draft.vertical,
    language: draft.language,
    persona_name: draft.personaName,
    tone: draft.tone,
    primary_color: draft.primaryColor,
    starter_prompts: draft.starterPrompts,
    origins: draft.origins,
    behavior_rules: draft.behaviorRules,
    branding,
  };
}

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** A text setting: its label, its input, and the server's error beside it. */
function TextField({
  id,
  label,
  field,
  fields,
  value,
  onChange,
  hint,
  type = "text",
}: {
  id: string;
  label: string;
  field: string;
  fields: Record<string, string[]>;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  type?: string;
}) {
  return (
    <div className="field-row">
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} value={value} onChange={(event) => onChange(event.target.value)} {...invalidProps(fields, field, id)} />
      {hint && <span className="muted hint">{hint}</span>}
      <FieldError fields={fields} field={field} id={id} />
    </div>
  );
}

/** Publish or unpublish: the server decides who may (an agent-role operator gets its refusal). */
function PublicationControl({ agent }: { agent: ConsoleAgent }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: async () => {
      const path = agent.published ? "/api/v1/console/agents/{id}/unpublish" : "/api/v1/console/agents/{id}/publish";
      return (await dataOf(api.POST(path, { params: { path: { id: agent.id } } }))).data;
    },
    onSuccess: (changed) => {
      queryClient.setQueryData(agentQueryKey(agent.id), changed);
      void queryClient.invalidateQueries({ queryKey: AGENTS_QUERY_KEY });
    },
  });
  return (
    <div className="publication">
      <span className={`badge ${agent.published ? "status-human" : "status-closed"}`}>{agent.published ? "Published" : "Draft"}</span>
      <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate()}>
        {agent.published ? "Unpublish" : "Publish"}
      </button>
      {toggle.isError && (
        <p role="alert" className="error">
          {describeError(toggle.error)}
        </p>
      )}
    </div>
  );
}

/** Every setting of an agent, saved in one PATCH; the server's 422 fields are shown beside their controls. */
export function AgentEditor({ agent }: { agent: ConsoleAgent }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(agent));
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const set = <K extends keyof Draft>(key: K) => (value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const save = useMutation({
    mutationFn: async () => (await dataOf(api.PATCH("/api/v1/console/agents/{id}", { params: { path: { id: agent.id } }, body: bodyOf(draft) }))).data,
    onSuccess: (changed) => {
      queryClient.setQueryData(agentQueryKey(agent.id), changed);
      void queryClient.invalidateQueries({ queryKey: AGENTS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: snippetQueryKey(agent.id) });
      setDraft(draftOf(changed));
      setSavedAt(new Date().toLocaleTimeString());
    },
  });
  const fields = fieldErrorsOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSavedAt(null);
    save.mutate();
  };
  return (
    <div className="agent-editor">
      <div className="agent-editor-head">
        <h2 id="agent-title">{agent.name}</h2>
        <PublicationControl agent={agent} />
      </div>
      <div className="agent-editor-body">
        <form className="agent-form" onSubmit={submit} aria-labelledby="agent-title" noValidate>
          <fieldset>
            <legend>Identity</legend>
            <TextField id="agent-name" label="Name" field="name" fields={fields} value={draft.name} onChange={set("name")} />
            <div className="field-row">
              <label htmlFor="agent-vertical">Vertical</label>
              <select id="agent-vertical" value={draft.vertical} onChange={(event) => set("vertical")(event.target.value as Draft["vertical"])} {...invalidProps(fields, "vertical", "agent-vertical")}>
                <option value="general">General</option>
                <option value="ecommerce">E-commerce (coupons in rules)</option>
              </select>
              <FieldError fields={fields} field="vertical" id="agent-vertical" />
            </div>
            <TextField id="agent-language" label="Language" field="language" fields={fields} value={draft.language} onChange={set("language")} hint="A language tag such as en, fr or pt-BR." />
          </fieldset>
          <fieldset>
            <legend>Persona</legend>
            <TextField id="agent-persona-name" label="Persona name" field="persona_name" fields={fields} value={draft.personaName} onChange={set("personaName")} hint="The name the assistant gives itself." />
            <TextField id="agent-tone" label="Tone" field="tone" fields={fields} value={draft.tone} onChange={set("tone")} hint="For example: friendly, formal, playful and brief." />
          </fieldset>
          <fieldset>
            <legend>Appearance</legend>
            <div className="field-row">
              <label htmlFor="agent-colour">Primary colour</label>
              <div className="colour-input">
                <input
                  type="color"
                  aria-label="Pick the primary colour"
                  value={HEX_COLOUR.test(draft.primaryColor) ? draft.primaryColor : "#2563eb"}
                  onChange={(event) => set("primaryColor")(event.target.value)}
                />
                <input id="agent-colour" value={draft.primaryColor} onChange={(event) => set("primaryColor")(event.target.value)} {...invalidProps(fields, "primary_color", "agent-colour")} />
              </div>
              <FieldError fields={fields} field="primary_color" id="agent-colour" />
            </div>
            <ListEditor
              id="agent-prompts"
              legend="Starter prompts"
              itemLabel="Starter prompt"
              addLabel="Add a starter prompt"
              values={draft.starterPrompts}
              onChange={set("starterPrompts")}
              fields={fields}
              field="starter_prompts"
              placeholder="Do you ship abroad?"
              max={10}
            />
          </fieldset>
          <fieldset>
            <legend>Branding</legend>
            <div className="field-row">
              <label htmlFor="agent-branding-show">Branding line</label>
              <select id="agent-branding-show" value={draft.brandingShow} onChange={(event) => set("brandingShow")(event.target.value as Draft["brandingShow"])}>
                <option value="default">As the service sets it ({agent.branding.show ? "shown" : "hidden"})</option>
                <option value="show">Shown</option>
                <option value="hide">Hidden</option>
              </select>
              <FieldError fields={fields} field="branding.show" id="agent-branding-show" />
            </div>
            <TextField id="agent-branding-label" label="Label" field="branding.label" fields={fields} value={draft.brandingLabel} onChange={set("brandingLabel")} hint={`Empty: “${agent.branding.label}”.`} />
            <TextField id="agent-branding-url" label="Link" type="url" field="branding.url" fields={fields} value={draft.brandingUrl} onChange={set("brandingUrl")} />
            <TextField id="agent-branding-logo" label="Logo address" type="url" field="branding.logo_url" fields={fields} value={draft.brandingLogoUrl} onChange={set("brandingLogoUrl")} />
            <div className="field-row">
              <label htmlFor="agent-display-mode">Display mode</label>
              <select id="agent-display-mode" value={draft.brandingDisplayMode} onChange={(event) => set("brandingDisplayMode")(event.target.value as Draft["brandingDisplayMode"])}>
                <option value="">As the service sets it</option>
                <option value="logo_and_label">Logo and label</option>
                <option value="logo_only">Logo only</option>
                <option value="label_only">Label only</option>
              </select>
              <FieldError fields={fields} field="branding.display_mode" id="agent-display-mode" />
            </div>
            <FieldError fields={Object.fromEntries(Object.entries(fields).filter(([name]) => name === "branding"))} field="branding" id="agent-branding" />
          </fieldset>
          <ListEditor
            id="agent-origins"
            legend="Allowed origins"
            itemLabel="Origin"
            addLabel="Add an origin"
            values={draft.origins}
            onChange={set("origins")}
            fields={fields}
            field="origins"
            placeholder="https://www.example.com"
            max={50}
          />
          <fieldset>
            <legend>Behavior rules</legend>
            <BehaviorRulesEditor rules={draft.behaviorRules} onChange={set("behaviorRules")} fields={fields} ecommerce={draft.vertical === "ecommerce"} />
          </fieldset>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save changes"}
            </button>
            <button type="button" disabled={save.isPending} onClick={() => setDraft(draftOf(agent))}>
              Discard changes
            </button>
            <span role="status" className="muted">
              {savedAt ? `Saved at ${savedAt}.` : ""}
            </span>
          </div>
          {save.isError && (
            <p role="alert" className="error">
              {describeError(save.error)}
            </p>
          )}
        </form>
        <aside className="agent-side" aria-label="Preview and installation">
          <section aria-labelledby="preview-title">
            <h3 id="preview-title">Preview</h3>
            <p className="muted">The widget as visitors see it, with the saved settings.</p>
            <WidgetPreview agentId={agent.id} version={agent.updated_at} />
          </section>
          <section aria-labelledby="install-title">
            <h3 id="install-title">Install</h3>
            <InstallSnippet agentId={agent.id} />
          </section>
        </aside>
      </div>
    </div>
  );
}
