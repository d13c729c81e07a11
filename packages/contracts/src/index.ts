export * from "./common.js";
export * from "./errors.js";
export * from "./widget.js";
export * from "./sources.js";
export * from "./messages.js";
export * from "./storable-text.js";
