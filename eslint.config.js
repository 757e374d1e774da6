import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

// tsconfig.json holds the TypeScript; the JavaScript files (about two dozen scripts: the build,
// packaging, the bench) are read in a project of their own, with room to grow.
const typeInformation = {
  projectService: {
    allowDefaultProject: [
      "*.js",
      "*.cjs",
      "bin/*.js",
      "test/support/*.cjs",
      "scripts/*.mjs",
      "scripts/*.cjs",
      "bench/*.mjs",
      "bench/lib/*.mjs",
    ],
    maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 40,
  },
  tsconfigRootDir: import.meta.dirname,
};

// Type-aware: a promise left floating (a sink write that may return one), passed where a callback's
// result is ignored, or awaited when it is not one is an error, in the JavaScript files too.
export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "bench/results/**", "release/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: typeInformation,
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-control-regex": "off",
      // An AbortSignal's reason is typed any: rejecting with it is how an interrupt travels.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true }],
      // An async function without await is how a throw becomes a rejection, as the caller expects.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    // Plain JavaScript has few types to be unsafe about: of the type-aware rules, those about promises.
    files: ["**/*.{js,mjs,cjs}"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { parserOptions: typeInformation },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    // CommonJS (bin/package.json): bin/msgstat.js says why; test/support/held-bin.cjs loads dist/ as it does;
    // the single executable's scripts are CommonJS, as the program they load is.
    files: ["bin/**/*.js", "test/support/*.cjs", "scripts/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
