import type { EmbedOptions } from "../shared/embed-context.js";

const AGENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * The options of the script tag (data-agent-id, data-language, data-open, data-position,
 * data-consent, data-user-id/-hash/-email/-name), or an error message for the site owner when the tag cannot work.
 */
export function readEmbedOptions(script: HTMLScriptElement): EmbedOptions | string {
  const data = script.dataset;
  const agentId = (data.agentId ?? "").trim();
  if (!AGENT_ID.test(agentId)) return 'the script tag needs data-agent-id="agt_…" (the id `frontdesk admin agent list` shows)';
  const language = (data.language ?? "").trim();
  const open = (data.open ?? "").trim().toLowerCase();
  return {
    agentId,
    language: LANGUAGE.test(language) ? language : null,
    openOnLoad: open === "" ? "open" in data : open !== "false" && open !== "0",
    position: data.position === "left" ? "left" : "right",
    consentRequired: data.consent === "required",
    serviceUrl: new URL(".", script.src).href,
    identity: data.userId ? { user_id: data.userId, user_hash: data.userHash, email: data.userEmail, name: data.userName } : undefined,
  };
}
