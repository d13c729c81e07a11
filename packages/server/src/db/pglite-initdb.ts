/**
 * Run as a child process by `initialisePgliteDataDir`: creates a PGlite data directory (initdb)
 * and exits, so the memory initdb needs goes back to the system with the process.
 */
import { PGlite } from "@electric-sql/pglite";
import { pgliteMemorySettings, useBaselineWasmCompiler } from "./pglite-memory.js";

const dataDir = process.argv[2];
if (dataDir === undefined || dataDir === "") throw new Error("usage: pglite-initdb.js <data dir>");
useBaselineWasmCompiler();
const pglite = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...pgliteMemorySettings()] });
await pglite.close();
