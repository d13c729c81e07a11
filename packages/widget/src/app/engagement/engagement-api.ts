import type { BehaviorRule } from "@frontdesk/contracts";

/** A refusal of the widget API: its status and stable code. */
export class EngagementError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function post(serviceUrl: string, path: string, body: unknown, token?: string): Promise<unknown> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  // keepalive: an event posted as the visitor follows a link still arrives.
  const response = await fetch(new URL(`api/v1/widget/${path}`, serviceUrl), { method: "POST", headers, body: JSON.stringify(body), credentials: "omit", mode: "cors", keepalive: true });
  const data = (await response.json().catch(() => ({}))) as { data?: unknown; error?: { code?: string; message?: string } };
  if (!response.ok) throw new EngagementError(response.status, data.error?.code ?? "http_error", data.error?.message ?? `HTTP ${response.status}`);
  return data.data;
}

/** The widget API's engagement routes: rules (no session), /events, /satisfaction, /coupon/apply. */
export class EngagementApi {
  constructor(private readonly serviceUrl: string) {}

  async rules(agentId: string): Promise<BehaviorRule[]> {
    const data = (await post(this.serviceUrl, "rules", { agent_id: agentId, page_url: location.href })) as { behavior_rules: BehaviorRule[] };
    return data.behavior_rules;
  }

  event(token: string, event: string, ruleId?: string, metadata?: Record<string, unknown>): Promise<unknown> {
    return post(this.serviceUrl, "events", { event, ...(ruleId ? { rule_id: ruleId } : {}), ...(metadata ? { metadata } : {}) }, token);
  }

  satisfaction(token: string, rating: "good" | "bad", comment: string): Promise<unknown> {
    return post(this.serviceUrl, "satisfaction", { rating, ...(comment ? { comment } : {}) }, token);
  }

  coupon(token: string, code: string): Promise<unknown> {
    return post(this.serviceUrl, "coupon/apply", { code }, token);
  }
}
