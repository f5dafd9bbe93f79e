import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["scratch/**", "dist/**", "node_modules/**", "bench/results/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "off",
    },
  },
  {
    // Runs inside pages rendered by Chromium.
    files: ["lab/dom-*.js"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The library is silent: only the CLI, scripts, lab tools and benches print.
    files: ["src/**/*.ts"],
    ignores: ["src/cli/**", "src/**/*.test.ts"],
    rules: { "no-console": "error" },
  },
);
