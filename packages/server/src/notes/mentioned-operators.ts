/** A letter or digit of any script: a mention's name must not run on into one. */
const NAME_CHARACTER = /[\p{L}\p{N}]/u;

const folded = (text: string) => text.toLowerCase();

/**
 * The operators a note mentions: each `@Name` (at the start or after a character that is not a
 * letter or digit) whose following words are an operator's full name, or their first name when
 * no other operator of the workspace has that first name; case ignored, the longest name first,
 * and the name must end there (`@Ana` does not mention Anabel). Each operator once, in the order
 * first mentioned.
 */
export function mentionedOperators<Operator extends { id: string; name: string }>(content: string, operators: readonly Operator[]): Operator[] {
  const firstNames = new Map<string, Operator[]>();
  for (const operator of operators) {
    const first = folded(operator.name.trim().split(/\s+/u)[0] ?? "");
    if (first) firstNames.set(first, [...(firstNames.get(first) ?? []), operator]);
  }
  const candidates: { name: string; operator: Operator }[] = [
    ...operators.map((operator) => ({ name: folded(operator.name.trim().replace(/\s+/gu, " ")), operator })),
    ...[...firstNames].flatMap(([name, holders]) => (holders.length === 1 ? [{ name, operator: holders[0]! }] : [])),
  ]
    .filter((candidate) => candidate.name !== "")
    .sort((a, b) => b.name.length - a.name.length);
  const text = folded(content);
  const found: Operator[] = [];
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    if (at > 0 && NAME_CHARACTER.test(text[at - 1]!)) continue;
    const rest = text.slice(at + 1).replace(/\s+/gu, " ");
    const match = candidates.find(({ name }) => rest.startsWith(name) && !NAME_CHARACTER.test(rest.charAt(name.length)));
    if (match && !found.includes(match.operator)) found.push(match.operator);
  }
  return found;
}
