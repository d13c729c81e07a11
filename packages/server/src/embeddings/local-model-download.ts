import { createWriteStream } from "node:fs";
import { access, rename, rm } from "node:fs/promises";
import { makeDirectory } from "../files/make-directory.js";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { localModelFileList, type LocalModelDtype, type LocalModelFiles } from "./local-model-files.js";

export const DEFAULT_MODEL_HOST = "https://huggingface.co/";

export interface DownloadLocalModelOptions {
  modelId: string;
  /** Files land in `<cacheDir>/<org>/<name>/…`, the layout `findLocalModelFiles` reads. */
  cacheDir: string;
  /** A Hugging Face Hub or a mirror; files are fetched from `<host><org>/<name>/resolve/main/<file>`. */
  remoteHost?: string;
  dtype: LocalModelDtype;
  /** How long to wait for a server to start answering each file. Default 30 s. */
  responseTimeoutMs?: number;
}

/** Why a download failed: the URL and what went wrong, in one line. */
export class ModelDownloadError extends Error {
  constructor(
    readonly url: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${url}: ${detail}`, options);
    this.name = "ModelDownloadError";
  }
}

function describeFetchFailure(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return "code" in cause && typeof cause.code === "string" ? cause.code : cause.message;
  return error instanceof Error ? error.message : String(error);
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function downloadFile(url: string, target: string, responseTimeoutMs: number): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${responseTimeoutMs} ms`)), responseTimeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { signal: controller.signal, redirect: "follow" });
  } catch (error) {
    throw new ModelDownloadError(url, controller.signal.aborted ? String(controller.signal.reason) : describeFetchFailure(error), { cause: error });
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new ModelDownloadError(url, `HTTP ${response.status}`);
  }
  await makeDirectory(path.dirname(target));
  const partial = `${target}.part`;
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(partial));
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw new ModelDownloadError(url, describeFetchFailure(error), { cause: error });
  }
}

/**
 * Fetches the files of a model missing from the cache (config, tokenizer, ONNX weights), one at a
 * time, each written under a `.part` name and renamed once complete, so an interrupted download
 * is never mistaken for a model. Throws ModelDownloadError naming the first file that failed.
 */
export async function downloadLocalModel(options: DownloadLocalModelOptions): Promise<LocalModelFiles> {
  const host = options.remoteHost ?? DEFAULT_MODEL_HOST;
  const base = host.endsWith("/") ? host : `${host}/`;
  const directory = path.join(options.cacheDir, ...options.modelId.split("/"));
  for (const file of localModelFileList(options.dtype)) {
    const target = path.join(directory, file);
    if (await exists(target)) continue;
    await downloadFile(`${base}${options.modelId}/resolve/main/${file}`, target, options.responseTimeoutMs ?? 30_000);
  }
  return { dtype: options.dtype, directory };
}
