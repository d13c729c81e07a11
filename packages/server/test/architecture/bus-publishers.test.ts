import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { folderOf, readImportGraph } from "./import-graph.js";

const root = fileURLToPath(new URL("../../src", import.meta.url));

/** Where the bus may be published to freely: the realtime server itself and the composition roots (the admin socket's wiring). */
const PUBLISHERS = new Set(["realtime", "cli", "runtime.ts", "app.ts", "main.ts", "realtime-app.ts", "subscribe-domain-events.ts"]);

/**
 * Signals that change nothing in the store (ARCHITECTURE.md, "Events"): there is no transaction to
 * wait for and nothing to tell a webhook, so a use case publishes them itself.
 */
const EPHEMERAL_SIGNALS = new Set(["visitor.typing", "operator.typing"]);

/**
 * A subscriber, not a use case: the Knowledge screen's projection of a source reads the store after
 * the commit of `source.changed` (subscribe-domain-events.ts) and, for the worker's throttled
 * progress, after each page (start-workers.ts).
 */
const BUS_PROJECTIONS: Record<string, string[]> = { "console/knowledge/source-update-publisher.ts": ["source.updated"] };

/** Every `….bus.publish(…)` / `bus.publish(…)` of a file, by the literal `type` of its event (`<computed>` when it is built elsewhere). */
function busPublishes(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "publish") {
      const target = node.expression.expression;
      const named = ts.isIdentifier(target) ? target.text : ts.isPropertyAccessExpression(target) ? target.name.text : "";
      if (/bus$/i.test(named)) {
        const [event] = node.arguments;
        const type =
          event && ts.isObjectLiteralExpression(event)
            ? event.properties.find((property): property is ts.PropertyAssignment => ts.isPropertyAssignment(property) && property.name.getText(source) === "type")
            : undefined;
        found.push(type && ts.isStringLiteral(type.initializer) ? type.initializer.text : "<computed>");
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("who publishes to the realtime bus", () => {
  const files = readImportGraph(root).files.filter((file) => !PUBLISHERS.has(folderOf(file)));
  const publishes = files.flatMap((file) => busPublishes(file).map((type) => ({ file, type })));

  it("happy: the rule reads the real publishers (the typing signals are found)", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(new Set(publishes.filter(({ type }) => EPHEMERAL_SIGNALS.has(type)).map(({ type }) => type))).toEqual(EPHEMERAL_SIGNALS);
  });

  it("security: a change's bus events come from its domain events after the commit: no use case publishes anything but an ephemeral signal", () => {
    const found = publishes
      .filter(({ file, type }) => !EPHEMERAL_SIGNALS.has(type) && !(BUS_PROJECTIONS[file] ?? []).includes(type))
      .map(({ file, type }) => `${file} publishes ${type}`);
    expect(found).toEqual([]);
  });
});
