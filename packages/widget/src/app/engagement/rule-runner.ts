import type { BehaviorRule } from "@frontdesk/contracts";
import { matchesUrlPattern } from "./url-pattern.js";

/**
 * Watches the page for each rule's trigger and calls `fire` once per rule and page view:
 * `page` at once on a matching page, `time_on_page` after its seconds (counted from the page's
 * load), `scroll` when the visitor has scrolled `percent` of the page, `exit_intent` when the
 * pointer leaves the window through its top edge. Returns a function that stops watching.
 */
export function runRules(rules: readonly BehaviorRule[], fire: (rule: BehaviorRule) => void): () => void {
  const page = new URL(location.href);
  const stops: (() => void)[] = [];
  const fired = new Set<string>();
  const once = (rule: BehaviorRule) => {
    if (fired.has(rule.id)) return;
    fired.add(rule.id);
    fire(rule);
  };
  for (const rule of rules) {
    const trigger = rule.trigger;
    if (trigger.url !== undefined && !matchesUrlPattern(trigger.url, page)) continue;
    if (trigger.type === "page") once(rule);
    else if (trigger.type === "time_on_page") {
      const timer = setTimeout(() => once(rule), Math.max(0, trigger.seconds * 1000 - performance.now()));
      stops.push(() => clearTimeout(timer));
    } else if (trigger.type === "scroll") {
      const check = () => {
        const root = document.documentElement;
        const scrollable = root.scrollHeight - window.innerHeight;
        const percent = scrollable <= 0 ? 100 : ((window.scrollY + 1) / scrollable) * 100;
        if (percent >= trigger.percent) {
          window.removeEventListener("scroll", check);
          once(rule);
        }
      };
      window.addEventListener("scroll", check, { passive: true });
      stops.push(() => window.removeEventListener("scroll", check));
    } else {
      const leave = (event: MouseEvent) => {
        if (event.relatedTarget === null && event.clientY <= 0) {
          document.removeEventListener("mouseout", leave);
          once(rule);
        }
      };
      document.addEventListener("mouseout", leave);
      stops.push(() => document.removeEventListener("mouseout", leave));
    }
  }
  return () => {
    for (const stop of stops) stop();
  };
}
