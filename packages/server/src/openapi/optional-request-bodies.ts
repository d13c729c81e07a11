const SCHEMA_REF = "#/components/schemas/";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolve(schema: unknown, components: Record<string, unknown>): unknown {
  if (isRecord(schema) && typeof schema.$ref === "string" && schema.$ref.startsWith(SCHEMA_REF)) {
    return components[schema.$ref.slice(SCHEMA_REF.length)];
  }
  return schema;
}

/**
 * @fastify/swagger marks every request body required. Ours reads an empty body as `{}`
 * (`http/json-body.ts`), so a body whose schema is an object with no required member may be
 * left out (POST /typing, /request-human): the document says so, and generated clients let it.
 */
export function markOptionalRequestBodies<Doc extends object>(document: Doc): Doc {
  const components = "components" in document && isRecord(document.components) && isRecord(document.components.schemas) ? document.components.schemas : {};
  const paths = "paths" in document && isRecord(document.paths) ? document.paths : {};
  for (const pathItem of Object.values(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const operation of Object.values(pathItem)) {
      if (!isRecord(operation) || !isRecord(operation.requestBody)) continue;
      const content = operation.requestBody.content;
      const json = isRecord(content) ? content["application/json"] : undefined;
      const schema = resolve(isRecord(json) ? json.schema : undefined, components);
      if (isRecord(schema) && schema.type === "object" && !Array.isArray(schema.required)) operation.requestBody.required = false;
    }
  }
  return document;
}
