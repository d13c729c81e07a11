/**
 * Run as a child process by `initialisePgliteDataDir`: creates a PGlite data directory (initdb)
 * and exits, so the memory initdb needs goes back to the system with the process.
 */
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_MEMORY_SETTINGS, useBaselineWasmCompiler } from "./pglite-memory.js";

const dataDir = process.argv[2];
if (dataDir === undefined || dataDir === "") throw new Error("usage: pglite-initdb.js <data dir>");
useBaselineWasmCompiler();
const pglite = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY_SETTINGS] });
await pglite.close();
