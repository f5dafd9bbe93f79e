export * from "./common.js";
export * from "./uielement.js";
export * from "./screenstate.js";
export * from "./documents.js";
export * from "./workflow.js";
export * from "./trace.js";
export * from "./assist.js";
