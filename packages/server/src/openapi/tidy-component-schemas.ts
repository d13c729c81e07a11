const SCHEMA_REF = "#/components/schemas/";
const INPUT_SUFFIX = "Input";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The component names `value` refers to (`$ref: "#/components/schemas/<name>"`), at any depth. */
function collectReferences(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectReferences(item, into);
  } else if (isRecord(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string" && child.startsWith(SCHEMA_REF)) into.add(child.slice(SCHEMA_REF.length));
      else collectReferences(child, into);
    }
  }
}

function renameReferences(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameReferences(item, renames));
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$ref" && typeof child === "string" && child.startsWith(SCHEMA_REF)) {
      const name = child.slice(SCHEMA_REF.length);
      result[key] = SCHEMA_REF + (renames.get(name) ?? name);
    } else {
      result[key] = renameReferences(child, renames);
    }
  }
  return result;
}

/**
 * fastify-type-provider-zod emits every registered schema twice: as read (`<id>Input`, for
 * request bodies) and as written (`<id>`, for responses). This keeps only the components the
 * document references (directly or through another component) and gives an input-only one
 * its plain name, so `CreateSourceRequestInput` reads `CreateSourceRequest` and no unused
 * `SourceInput` is left behind.
 */
export function tidyComponentSchemas<Doc extends object>(document: Doc): Doc {
  const components = "components" in document && isRecord(document.components) ? document.components : {};
  const schemas = isRecord(components.schemas) ? components.schemas : {};
  const reachable = new Set<string>();
  collectReferences({ ...document, components: { ...components, schemas: {} } }, reachable);
  const queue = [...reachable];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const found = new Set<string>();
    collectReferences(schemas[name], found);
    for (const reference of found) {
      if (!reachable.has(reference)) {
        reachable.add(reference);
        queue.push(reference);
      }
    }
  }

  const renames = new Map<string, string>();
  for (const name of reachable) {
    const plain = name.slice(0, -INPUT_SUFFIX.length);
    // An input-only component takes its plain name; so does one read exactly as it is written (a
    // schema used in a request body and a response alike, such as BehaviorRule).
    const sameAsWritten = reachable.has(plain) && JSON.stringify(schemas[name]) === JSON.stringify(schemas[plain]);
    if (name.endsWith(INPUT_SUFFIX) && plain.length > 0 && (!reachable.has(plain) || sameAsWritten)) renames.set(name, plain);
  }
  const kept: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (reachable.has(name)) kept[renames.get(name) ?? name] = schema;
  }
  return renameReferences({ ...document, components: { ...components, schemas: kept } }, renames) as Doc;
}
