/**
 * Curated answers as other domains reach them (answer tests are made from one): `curated_answers`
 * is owned by console/curated/, whose repository alone holds its SQL.
 */
export { findWorkspaceCuratedAnswer } from "./curated-answer-repository.js";
export type { CuratedAnswer } from "./curated-answer-repository.js";
