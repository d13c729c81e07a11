import { ApiError, type Schemas } from "../api/client.js";

type ConsoleSource = Schemas["ConsoleSource"];

/** The console route a file is posted to (multipart/form-data; documented as createConsoleSource). */
const SOURCES_PATH = "/api/v1/console/knowledge/sources";

type ErrorBody = { error?: { code?: string; message?: string; fields?: Record<string, string[]> } };

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Posts one file as a file source with XMLHttpRequest, whose upload events (unlike fetch's) report
 * how many bytes have left: `onProgress(sent, total)`. Resolves with the source (and whether it
 * was new, or the agent already had these bytes); rejects with an ApiError carrying the server's
 * code and words (413 `file_too_large`, 415 `unsupported_media_type` …), status 0 when the
 * service could not be reached. The session cookie and the browser's Origin ride along: same origin.
 */
export function uploadFileSource(
  fields: { agentId: string; csvMode: "curated" | "chunks" },
  file: File,
  onProgress: (sent: number, total: number) => void,
): Promise<{ source: ConsoleSource; created: boolean }> {
  const form = new FormData();
  form.append("agent_id", fields.agentId);
  form.append("kind", "file");
  // Only a CSV reads it; the server ignores it for the other kinds.
  form.append("csv_mode", fields.csvMode);
  form.append("file", file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", new URL(SOURCES_PATH, window.location.origin).toString());
    request.setRequestHeader("accept", "application/json");
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    request.addEventListener("load", () => {
      const body = parse(request.responseText);
      if (request.status === 200 || request.status === 201) {
        const data = (body as { data?: ConsoleSource } | null)?.data;
        if (data) return resolve({ source: data, created: request.status === 201 });
      }
      const error = (body as ErrorBody | null)?.error;
      reject(new ApiError(request.status, error?.code ?? "unknown_error", error?.message ?? `The service answered ${request.status}.`, error?.fields));
    });
    const unreachable = () => reject(new ApiError(0, "network_error", "The service could not be reached. Check the connection and try again."));
    request.addEventListener("error", unreachable);
    request.addEventListener("abort", unreachable);
    request.send(form);
  });
}
