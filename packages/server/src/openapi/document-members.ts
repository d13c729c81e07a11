import type { z } from "zod";
import { componentSchemas } from "./component-schemas.js";

/** Copies the contracts' `.describe()` texts of an object's members to where the OpenAPI document reads them (query parameters included). */
export function documentMembers(schema: { shape: Record<string, z.ZodType> }): void {
  for (const member of Object.values(schema.shape)) {
    if (member.description && !componentSchemas.has(member)) componentSchemas.add(member, { description: member.description });
  }
}
