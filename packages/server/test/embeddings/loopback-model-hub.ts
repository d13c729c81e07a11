import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface LoopbackModelHub {
  /** e.g. `http://127.0.0.1:40123/`, for the local embedder's `remoteHost`. */
  url: string;
  /** `METHOD /path` of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

const RESOLVE_PATH = /^\/(?<model>[^/]+\/[^/]+)\/resolve\/main\/(?<file>[^?]+)$/;

/**
 * Serves `<root>/<org>/<name>/<file>` the way the Hugging Face Hub does, at
 * `/<org>/<name>/resolve/main/<file>`, so the model download path runs with no internet.
 */
export async function startLoopbackModelHub(root: string): Promise<LoopbackModelHub> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const url = request.url ?? "";
    requests.push(`${request.method ?? ""} ${url}`);
    const match = RESOLVE_PATH.exec(url);
    const model = match?.groups?.model;
    const file = match?.groups?.file;
    if (model === undefined || file === undefined || file.includes("..")) {
      response.writeHead(404).end();
      return;
    }
    const filePath = path.join(root, model, file);
    stat(filePath).then(
      (stats) => {
        response.writeHead(200, { "content-length": String(stats.size), "content-type": "application/octet-stream" });
        if (request.method === "HEAD") response.end();
        else createReadStream(filePath).pipe(response);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
