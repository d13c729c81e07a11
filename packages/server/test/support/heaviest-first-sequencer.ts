import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** A test file that starts processes of its own (a `frontdesk` command, a server, Chromium). */
const STARTS_PROCESSES = /launchChromium\(|\bfrontdesk\(|startServer\(|runProcess\(|runWithInput\(|spawn\(|execFile\(/;

/**
 * How much longer a file that starts processes runs than another of its size: 3× (a whole run on
 * 29 Nov: 1.47 ms of wall time per byte of source against 0.47 for the 222 others).
 */
const PROCESS_WEIGHT = 3;
/** Wall time per byte of a test file that starts no process (the same run), to rank files the cache does not know with files it does. */
const MS_PER_BYTE = 0.47;

/**
 * Runs the longest files first, so that no long file starts last and runs alone at the end while
 * the other workers sit idle. Vitest does so from its cache of the last run's durations; a fresh
 * clone has none and Vitest would order by size, which puts a 50-line test starting four processes
 * after a 900-line one of pure functions. A file the cache does not know is estimated from its size,
 * three times more when it starts processes.
 */
export class HeaviestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const estimates = new Map<TestSpecification, number>();
    await Promise.all(files.map(async (file) => estimates.set(file, await this.estimateMs(file))));
    // As Vitest's own order: projects one after another, isolated ones first; then the longest first.
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        Number(b.project.config.isolate) - Number(a.project.config.isolate) ||
        a.project.name.localeCompare(b.project.name) ||
        estimates.get(b)! - estimates.get(a)!,
    );
  }

  private async estimateMs(file: TestSpecification): Promise<number> {
    const known = this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`);
    // A file that failed last time runs first, as with Vitest's own order.
    if (known) return known.failed ? Number.POSITIVE_INFINITY : known.duration;
    const source = await readFile(file.moduleId, "utf8").catch(() => "");
    return source.length * MS_PER_BYTE * (STARTS_PROCESSES.test(source) ? PROCESS_WEIGHT : 1);
  }
}
