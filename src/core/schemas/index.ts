export * from "./common.js";
export * from "./uielement.js";
export * from "./screenstate.js";
export * from "./documents.js";
