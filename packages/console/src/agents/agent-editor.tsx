import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, dataOf, describeError, type Schemas } from "../api/client.js";
import { AnsweringEditor, answeringBodyOf, answeringDraftOf, type AnsweringDraft } from "./answering-editor.js";
import { BehaviorRulesEditor } from "./behavior-rules-editor.js";
import { FieldError, fieldErrorsOf } from "./field-errors.js";
import { IdentityEditor, type IdentityMode } from "./identity-editor.js";
import { InstallSnippet, snippetQueryKey } from "./install-snippet.js";
import { ListEditor } from "./list-editor.js";
import { OfficeHoursEditor, officeHoursBodyOf, officeHoursDraftOf, type OfficeHoursDraft } from "./office-hours-editor.js";
import { RoutingEditor, routingBodyOf, routingDraftOf, type RoutingDraft } from "./routing-editor.js";
import { SettingField } from "./setting-field.js";
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
  hours: OfficeHoursDraft;
  answering: AnsweringDraft;
  identityMode: IdentityMode;
  routing: RoutingDraft;
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
    hours: officeHoursDraftOf(agent),
    answering: answeringDraftOf(agent),
    identityMode: agent.identity.mode,
    routing: routingDraftOf(agent),
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
    ...officeHoursBodyOf(draft.hours),
    ...answeringBodyOf(draft.answering),
    identity_mode: draft.identityMode,
    ...routingBodyOf(draft.routing),
  };
}

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const VERTICALS = [
  ["general", "General"],
  ["ecommerce", "E-commerce (coupons in rules)"],
] as const;
const DISPLAY_MODES = [
  ["", "As the service sets it"],
  ["logo_and_label", "Logo and label"],
  ["logo_only", "Logo only"],
  ["label_only", "Label only"],
] as const;

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
            <SettingField id="agent-name" label="Name" field="name" fields={fields} value={draft.name} onChange={set("name")} />
            <SettingField id="agent-vertical" label="Vertical" field="vertical" fields={fields} value={draft.vertical} onChange={set("vertical")} options={VERTICALS} />
            <SettingField id="agent-language" label="Language" field="language" fields={fields} value={draft.language} onChange={set("language")} hint="A language tag such as en, fr or pt-BR." />
          </fieldset>
          <fieldset>
            <legend>Persona</legend>
            <SettingField id="agent-persona-name" label="Persona name" field="persona_name" fields={fields} value={draft.personaName} onChange={set("personaName")} hint="The name the assistant gives itself." />
            <SettingField id="agent-tone" label="Tone" field="tone" fields={fields} value={draft.tone} onChange={set("tone")} hint="For example: friendly, formal, playful and brief." />
          </fieldset>
          <fieldset>
            <legend>Appearance</legend>
            <SettingField
              id="agent-colour"
              label="Primary colour"
              field="primary_color"
              fields={fields}
              value={draft.primaryColor}
              onChange={set("primaryColor")}
              addon={
                <input
                  type="color"
                  aria-label="Pick the primary colour"
                  value={HEX_COLOUR.test(draft.primaryColor) ? draft.primaryColor : "#2563eb"}
                  onChange={(event) => set("primaryColor")(event.target.value)}
                />
              }
            />
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
            <SettingField
              id="agent-branding-show"
              label="Branding line"
              field="branding.show"
              fields={fields}
              value={draft.brandingShow}
              onChange={set("brandingShow")}
              options={[["default", `As the service sets it (${agent.branding.show ? "shown" : "hidden"})`], ["show", "Shown"], ["hide", "Hidden"]]}
            />
            <SettingField id="agent-branding-label" label="Label" field="branding.label" fields={fields} value={draft.brandingLabel} onChange={set("brandingLabel")} hint={`Empty: “${agent.branding.label}”.`} />
            <SettingField id="agent-branding-url" label="Link" type="url" field="branding.url" fields={fields} value={draft.brandingUrl} onChange={set("brandingUrl")} />
            <SettingField id="agent-branding-logo" label="Logo address" type="url" field="branding.logo_url" fields={fields} value={draft.brandingLogoUrl} onChange={set("brandingLogoUrl")} />
            <SettingField id="agent-display-mode" label="Display mode" field="branding.display_mode" fields={fields} value={draft.brandingDisplayMode} onChange={set("brandingDisplayMode")} options={DISPLAY_MODES} />
            <FieldError fields={Object.fromEntries(Object.entries(fields).filter(([name]) => name === "branding"))} field="branding" id="agent-branding" />
          </fieldset>
          <AnsweringEditor draft={draft.answering} onChange={set("answering")} fields={fields} />
          <OfficeHoursEditor draft={draft.hours} onChange={set("hours")} fields={fields} />
          <IdentityEditor agent={agent} mode={draft.identityMode} onModeChange={set("identityMode")} fields={fields} />
          <RoutingEditor draft={draft.routing} onChange={set("routing")} fields={fields} />
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
