/**
 * Sources as other domains reach them (ingestion's progress and outcome, the console's Knowledge
 * screen, the WordPress sync, the CLI): `sources` and `source_texts` are owned by sources/, whose
 * repository alone holds their SQL.
 */
export { findSource, findSourceText, findWorkspaceSource, listAgentSources, listWorkspaceSources, lockSource, patchSourceConfig, presentSource, setSourceOutcome } from "./source-repository.js";
export type { SettledSource, SourceOutcome, SourceRecord } from "./source-repository.js";
export { findSourceFileContent } from "./source-file-repository.js";
export type { StoredFileContent } from "./source-file-repository.js";
export { findOrCreateWordpressSource, findWordpressSource, markWordpressPush } from "./wordpress-source-repository.js";
export type { WordpressSource } from "./wordpress-source-repository.js";
export { urlPatternFilter, urlPatternsOf } from "./url-patterns.js";
export type { UrlPatterns } from "./url-patterns.js";
