import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** A source tree's files and the relative imports between them, read with TypeScript's own pre-processor. */
export interface ImportGraph {
  /** Paths relative to the root, with forward slashes. */
  files: string[];
  /** file → the files of the tree it imports (type-only imports included: they tie the code as much). */
  imports: Map<string, string[]>;
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

/** Reads every .ts and .tsx file under `root` and resolves its relative imports (`./x.js` → `x.ts`). */
export function readImportGraph(root: string): ImportGraph {
  const files = listSources(root);
  const known = new Set(files);
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const targets = new Set<string>();
    for (const reference of ts.preProcessFile(text, true, true).importedFiles) {
      if (!reference.fileName.startsWith(".")) continue;
      const base = relative(root, resolve(root, dirname(file), reference.fileName)).split(sep).join("/");
      const candidates = [base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"), `${base}.ts`, `${base}.tsx`, `${base}/index.ts`];
      const target = candidates.find((candidate) => known.has(candidate));
      if (target) targets.add(target);
    }
    imports.set(file, [...targets].sort());
  }
  return { files, imports };
}

/** The import cycles between files: each strongly connected component of more than one file (Tarjan). */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.imports.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of graph.files) if (!index.has(file)) visit(file);
  return cycles;
}

/** The top folder of a file (`answering/retrieve/x.ts` → `answering`); files at the root are their own. */
export const folderOf = (file: string): string => (file.includes("/") ? file.slice(0, file.indexOf("/")) : file);

/** Every import from a file of one folder to a file of another, as `from → to`. */
export function crossFolderImports(graph: ImportGraph): { from: string; to: string }[] {
  const found: { from: string; to: string }[] = [];
  for (const [from, targets] of graph.imports) {
    for (const to of targets) if (folderOf(from) !== folderOf(to)) found.push({ from, to });
  }
  return found;
}
