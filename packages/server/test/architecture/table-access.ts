import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";

/** One table named by a statement in a file: written (INSERT INTO, UPDATE, DELETE FROM) or read (FROM, JOIN, USING). */
export interface TableAccess {
  /** Path relative to src/, forward slashes. */
  file: string;
  table: string;
  kind: "write" | "read";
}

function listSources(root: string, directory = root): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) found.push(...listSources(root, path));
    else if (/\.tsx?$/.test(entry) && !entry.endsWith(".d.ts")) found.push(relative(root, path).split(sep).join("/"));
  }
  return found.sort();
}

/** The text of every string and template literal of a file, a template's substitutions read as a space. */
function literalsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    else if (ts.isTemplateExpression(node)) found.push([node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(" "));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The files whose SQL puts an interpolation where a table is named (`FROM ${…}`, `JOIN ${…}`,
 * `INTO ${…}`, `UPDATE ${…}`, `USING ${…}`), which readTableAccess cannot read: `file: text`.
 */
export function readInterpolatedTables(root: string, skip: (file: string) => boolean): string[] {
  const found: string[] = [];
  for (const file of listSources(root)) {
    if (skip(file)) continue;
    const source = ts.createSourceFile(file, readFileSync(join(root, file), "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      if (ts.isTemplateExpression(node)) {
        for (const part of [node.head, ...node.templateSpans.slice(0, -1).map((span) => span.literal)]) {
          const match = /\b(?:FROM|JOIN|INTO|UPDATE|USING)\s*$/.exec(part.text);
          if (match) found.push(`${file}: ${part.text.slice(-40).trim()}\${…}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The tables the migrations under `root` create (CREATE TABLE), sorted. */
export function readCreatedTables(root: string): string[] {
  const found = new Set<string>();
  for (const file of listSources(root)) {
    for (const literal of literalsOf(file, readFileSync(join(root, file), "utf8"))) {
      for (const match of literal.matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/g)) found.add(match[1]!);
    }
  }
  return [...found].sort();
}

const WRITE = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_][a-z0-9_]*)/g;
const READ = /\b(?:FROM|JOIN|USING)\s+([a-z_][a-z0-9_]*)/g;

/** The tables of `tables` one SQL text writes and reads; keywords in capitals, as the code writes them. `DELETE FROM t` is a write, not also a read. */
export function tablesOfSql(text: string, tables: ReadonlySet<string>): { kind: TableAccess["kind"]; table: string }[] {
  const sql = text.replace(/\s+/g, " ");
  const found: { kind: TableAccess["kind"]; table: string }[] = [];
  for (const match of sql.matchAll(WRITE)) if (tables.has(match[1]!)) found.push({ kind: "write", table: match[1]! });
  for (const match of sql.matchAll(READ)) {
    if (/DELETE $/.test(sql.slice(Math.max(0, match.index - 7), match.index))) continue;
    if (tables.has(match[1]!)) found.push({ kind: "read", table: match[1]! });
  }
  return found;
}

/** Every table of `tables` that the SQL in the string and template literals of the files under `root` writes or reads, once per file, kind and table. */
export function readTableAccess(root: string, tables: ReadonlySet<string>, skip: (file: string) => boolean): TableAccess[] {
  const found = new Map<string, TableAccess>();
  for (const file of listSources(root)) {
    if (skip(file)) continue;
    for (const literal of literalsOf(file, readFileSync(join(root, file), "utf8"))) {
      for (const { kind, table } of tablesOfSql(literal, tables)) found.set(`${file} ${kind} ${table}`, { file, table, kind });
    }
  }
  return [...found.values()].sort((a, b) => `${a.table} ${a.kind} ${a.file}`.localeCompare(`${b.table} ${b.kind} ${b.file}`));
}
