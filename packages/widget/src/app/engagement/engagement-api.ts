import type { BehaviorRule } from "@frontdesk/contracts";
import { widgetRequest } from "../widget-request.js";

/** The widget API's engagement routes: rules (no session), /events, /satisfaction, /coupon/apply. */
export class EngagementApi {
  readonly #serviceUrl: string;
  constructor(serviceUrl: string) {
    this.#serviceUrl = serviceUrl;
  }

  // keepalive: an event posted as the visitor follows a link still arrives.
  #post(path: string, body: unknown, token?: string): Promise<unknown> {
    return widgetRequest(this.#serviceUrl, path, { body, keepalive: true, ...(token ? { token } : {}) });
  }

  async rules(agentId: string): Promise<BehaviorRule[]> {
    return ((await this.#post("rules", { agent_id: agentId, page_url: location.href })) as { data: { behavior_rules: BehaviorRule[] } }).data.behavior_rules;
  }

  event(token: string, event: string, ruleId?: string, metadata?: Record<string, unknown>): Promise<unknown> {
    return this.#post("events", { event, ...(ruleId ? { rule_id: ruleId } : {}), ...(metadata ? { metadata } : {}) }, token);
  }

  satisfaction(token: string, rating: "good" | "bad", comment: string): Promise<unknown> {
    return this.#post("satisfaction", { rating, ...(comment ? { comment } : {}) }, token);
  }

  coupon(token: string, code: string): Promise<unknown> {
    return this.#post("coupon/apply", { code }, token);
  }
}
