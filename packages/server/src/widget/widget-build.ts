import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtFile, type BuiltFile } from "../http/built-file.js";

/** Where `npm run build` puts the widget (packages/widget/dist), from src/widget or dist/widget alike. */
export const DEFAULT_WIDGET_BUILD_DIRECTORY = fileURLToPath(new URL("../../../widget/dist/", import.meta.url));

/** One built file, held in memory with its gzipped form and a strong ETag. */
export type WidgetFile = BuiltFile;

export type WidgetBuild =
  | { ready: true; directory: string; loader: WidgetFile; assets: ReadonlyMap<string, WidgetFile> }
  | { ready: false; directory: string; problem: string };

/** Hashed asset names esbuild writes (app-BZ4ONN5K.js, chunk-…js): nothing else is served. */
const ASSET_NAME = /^[A-Za-z0-9_-]{1,100}\.(js|css)$/;

/**
 * Reads the built widget once, at start: widget.js and the hashed files of assets/. A missing or
 * unreadable build is not fatal (the API works without it); `problem` says what to do.
 */
export function loadWidgetBuild(directory: string = DEFAULT_WIDGET_BUILD_DIRECTORY): WidgetBuild {
  try {
    const loader = builtFile(readFileSync(join(directory, "widget.js")));
    const assets = new Map<string, WidgetFile>();
    for (const name of readdirSync(join(directory, "assets"))) {
      if (ASSET_NAME.test(name)) assets.set(name, builtFile(readFileSync(join(directory, "assets", name))));
    }
    return { ready: true, directory, loader, assets };
  } catch (error) {
    const reason = error instanceof Error && "code" in error && error.code === "ENOENT" ? "is not built" : `could not be read (${String(error)})`;
    return { ready: false, directory, problem: `the widget at ${directory} ${reason}: /widget.js answers 404 until \`npm run build\` builds packages/widget` };
  }
}
