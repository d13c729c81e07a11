import { describe, inject } from "vitest";

/** A part of the suite that needs something from the machine (see scripts/test-legs/legs.mjs). */
export type TestLegName = "postgres" | "redis" | "chromium-headless-shell" | "chromium" | "dovecot" | "haproxy";

export interface TestLegState {
  status: "ready" | "skipped";
  /** Why the leg is skipped; null when ready. */
  reason: string | null;
  target: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    testLegs: Partial<Record<string, TestLegState>>;
  }
}

/** The legs probed by the global setup (test-legs-global-setup.ts); empty outside it. */
function legStates(): Partial<Record<string, TestLegState>> {
  try {
    return inject("testLegs") ?? {};
  } catch {
    return {};
  }
}

/** The needed legs that are skipped on this machine. */
export function missingLegs(needed: readonly TestLegName[]): TestLegName[] {
  const states = legStates();
  return needed.filter((leg) => states[leg]?.status === "skipped");
}

/** Why `leg` is skipped, or null when it is ready. */
export function skippedLegReason(leg: TestLegName): string | null {
  return legStates()[leg]?.reason ?? null;
}

const skippedTitle = (missing: readonly TestLegName[]) =>
  `skipped: no ${missing.join(", no ")} leg on this machine (the reason is in the banner at the end of the run)`;

/** `describe`, or `describe.skip` when one of the needed legs is skipped (vitest counts its tests as skipped). */
export function describeNeeding(...needed: TestLegName[]) {
  return (title: string, body: () => void) => {
    const missing = missingLegs(needed);
    if (missing.length === 0) describe(title, body);
    else describe.skip(`${title} — ${skippedTitle(missing)}`, body);
  };
}

/**
 * `describe.each(cases)` where each case may need legs: a case whose legs are missing keeps its
 * title and holds its tests in a skipped suite, so they are counted as skipped, not dropped.
 */
export function describeEachNeeding<T>(cases: readonly T[], legsOf: (testCase: T) => readonly TestLegName[]) {
  return (title: string, body: (testCase: T) => void) => {
    describe.each(cases as T[])(title, (testCase: T) => {
      const missing = missingLegs(legsOf(testCase));
      if (missing.length === 0) body(testCase);
      else describe.skip(skippedTitle(missing), () => body(testCase));
    });
  };
}
