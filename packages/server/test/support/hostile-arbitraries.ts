import fc from "fast-check";

/** A JSON Schema as /openapi.json writes it (the members the fuzzer reads). */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

/** Strings that broke, or could break, a store, a parser or a log line. */
export const NOTORIOUS_STRINGS = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00y",
  "\udbff\udfff",
  "\u{1F600}",
  "%00",
  "src_\u0000",
  "__proto__",
  "constructor",
  "",
  " ",
  "\u202e",
  "'; DROP TABLE sources; --",
  "\\u0000",
  "${jndi:ldap://x}",
  "../../etc/passwd",
  "NaN",
  "-1",
];

/** Any UTF-16 code units, lone surrogates and control characters included. */
export const codeUnitString = (maxLength = 40) =>
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength });

/** Printable ASCII only: what a header value can carry through `inject`. */
export const printableString = (maxLength = 60) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength });

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NOTORIOUS_STRINGS) },
  { weight: 3, arbitrary: codeUnitString() },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 70_000 }).map((length) => "x".repeat(length)) },
);

/** Any JSON value, hostile strings preferred, nested a little. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** A JSON object text with one member nested `depth` arrays or objects deep (up to far past any stack). */
export const deeplyNestedJson: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom("metadata", "fields", "page_context", "message", "agent_id", "reason"), fc.integer({ min: 2, max: 20_000 }), fc.boolean())
  .map(([member, depth, arrays]) => `{"${member}":${(arrays ? "[" : '{"a":').repeat(depth)}1${(arrays ? "]" : "}").repeat(depth)}}`);

/** Percent-encodes every code unit outside [A-Za-z0-9_-], a lone surrogate as its 3 WTF-8 bytes. */
export function percentEncode(value: string): string {
  let out = "";
  for (const char of value) {
    if (/^[A-Za-z0-9_-]$/.test(char)) {
      out += char;
      continue;
    }
    const code = char.codePointAt(0)!;
    const bytes =
      code < 0x80 ? [code]
      : code < 0x800 ? [0xc0 | (code >> 6), 0x80 | (code & 63)]
      : code < 0x10000 ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)]
      : [0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)];
    out += bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
  }
  return out;
}

/** A path segment as it travels in a URL: encoded hostile text, broken %-encodings, over-long, or a real id. */
export function pathSegment(realIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: hostileString.filter((value) => value.length < 300).map(percentEncode) },
    { weight: 2, arbitrary: fc.constantFrom("%00", "src_%00", "%ED%A0%80", "%E0%A4%A", "%", "%zz", "%C0%80", "%FF", "src_%F0%9F%98%80") },
    { weight: 1, arbitrary: fc.integer({ min: 60, max: 400 }).map((length) => "s".repeat(length)) },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/) },
    { weight: 2, arbitrary: fc.constantFrom(...realIds) },
  );
}

/** `?k=v&…` with encoded hostile keys and values, or nothing. */
export const queryString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant("") },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.tuple(hostileString.filter((value) => value.length < 200), hostileString.filter((value) => value.length < 200)), { minLength: 1, maxLength: 3 })
      .map((pairs) => `?${pairs.map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`).join("&")}`),
  },
  { weight: 1, arbitrary: fc.constantFrom("?%00", "?a=%ED%A0%80", "?a=%", "?a[b]=1&a[c]=2", "?__proto__[x]=1", "?a=1&a=2") },
);

interface Shaping {
  components: Record<string, JsonSchema>;
  /** Real values by member name, so requests reach deeper code. */
  known: Record<string, fc.Arbitrary<unknown>>;
  /** Whether members are sometimes replaced by hostile values. */
  hostile: boolean;
}

/**
 * Values shaped by `schema` (resolving `$ref` in `components`): clean ones that should pass
 * validation, ones whose members are sometimes replaced by a hostile value, and any value at all.
 */
export function valueOfSchema(
  schema: JsonSchema,
  components: Record<string, JsonSchema>,
  known: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: shapedValue(schema, { components, known, hostile: false }) },
    { weight: 3, arbitrary: shapedValue(schema, { components, known, hostile: true }) },
    { weight: 1, arbitrary: hostileValue },
  );
}

function shapedValue(schema: JsonSchema, shaping: Shaping): fc.Arbitrary<unknown> {
  const { components, known, hostile } = shaping;
  if (schema.$ref) {
    const target = components[schema.$ref.replace("#/components/schemas/", "")];
    if (!target) throw new Error(`unresolved ${schema.$ref}`);
    return shapedValue(target, shaping);
  }
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) return fc.oneof(...variants.map((variant) => shapedValue(variant, shaping)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case "object": {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, member] of Object.entries(schema.properties ?? {})) {
        const real = known[name] ?? shapedValue(member, shaping);
        model[name] = hostile ? fc.oneof({ weight: 4, arbitrary: real }, { weight: 1, arbitrary: hostileValue }) : real;
      }
      const extra =
        schema.properties ? fc.constant({})
        : hostile ? fc.dictionary(hostileString, hostileValue, { maxKeys: 4 })
        : fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.boolean()), { maxKeys: 4 });
      return fc
        .tuple(fc.record(model, { requiredKeys: schema.required?.filter((name) => name in model) ?? [] }), extra)
        .map(([members, more]) => ({ ...more, ...members }));
    }
    case "array":
      return fc.array(schema.items ? shapedValue(schema.items, shaping) : hostileValue, { maxLength: 4 });
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer();
    case "number":
      return fc.double();
    case "string":
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      if (schema.format === "uri") return fc.oneof(fc.webUrl(), fc.constant("https://shop.example.com/products/1"));
      {
        const clean = fc.string({ minLength: Math.max(1, schema.minLength ?? 0), maxLength: Math.min(schema.maxLength ?? 200, 200) });
        return hostile ? fc.oneof(clean, hostileString) : clean;
      }
    default:
      return hostileValue;
  }
}
