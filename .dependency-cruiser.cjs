// The layers of src/ and the one direction imports may run (CONTRIBUTING.md, "Layers"). `npm test` runs
// this through `npm run lint:layers`; a broken rule fails it with the rule's name and both files.
//
//   core -> http -> service -> stats -> output -> formats -> terminal -> reports -> config -> commands -> cli.ts   (each imports only to its left)
//   sandbox: apart; imports only core's message shape, and only `msgstat sandbox` imports it.
const LAYERS = ["core", "http", "service", "stats", "output", "formats", "terminal", "reports", "config", "commands"];

/** Each layer may import the ones below it, never one above it (nor cli.ts, the top). */
const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `${layer}-imports-only-below`,
  comment: `src/${layer}/ may import ${LAYERS.slice(0, index).join(", ") || "nothing of msgstat's"}; not ${LAYERS.slice(index + 1).join(", ")} or cli.ts`,
  severity: "error",
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(index + 1).join("|")})/|^src/cli\\.ts$` },
}));

/** Which npm packages a layer may use: the terminal's libraries stay out of the layers below terminal/. */
const packagesAbove = (layer, packages) => ({
  name: `${layer}-without-${packages.join("-")}`,
  comment: `src/${layer}/ does not use ${packages.join(", ")}: they belong to the layers above it`,
  severity: "error",
  from: { path: `^src/${layer}/` },
  to: {
    dependencyTypes: ["npm", "npm-dev", "npm-optional", "npm-peer", "npm-no-pkg", "npm-unknown"],
    path: `node_modules/(${packages.join("|")})/`,
  },
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "no module may depend on itself through others",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: "only-files-in-a-layer",
      comment: "every module of src/ lives in a layer's folder (or is cli.ts or the sandbox)",
      severity: "error",
      from: { path: "^src/", pathNot: `^src/(${[...LAYERS, "sandbox"].join("|")})/|^src/cli\\.ts$` },
      to: {},
    },
    {
      name: "commands-apart",
      comment: "one command's folder does not import another's; what two commands share lives in src/commands/shared/",
      severity: "error",
      from: { path: "^src/commands/([^/]+)/" },
      to: {
        path: "^src/commands/([^/]+)/",
        pathNot: ["^src/commands/$1/", "^src/commands/shared/", "^src/commands/[^/]+\\.ts$"],
      },
    },
    {
      name: "sandbox-stands-apart",
      comment: "src/sandbox/ imports only the message shape (src/core/message.ts), so it can never lean on the client",
      severity: "error",
      from: { path: "^src/sandbox/" },
      to: { path: "^src/", pathNot: "^src/sandbox/|^src/core/message\\.ts$" },
    },
    {
      name: "client-not-into-sandbox",
      comment: "only the `msgstat sandbox` command starts the sandbox; nothing else of the client imports it",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/sandbox/|^src/commands/sandbox/" },
      to: { path: "^src/sandbox/" },
    },
    packagesAbove("core", ["commander", "chalk", "ora", "string-width"]),
    packagesAbove("http", ["commander", "chalk", "ora", "string-width"]),
    packagesAbove("service", ["commander", "chalk", "ora", "string-width"]),
    packagesAbove("stats", ["commander", "chalk", "ora", "string-width"]),
    packagesAbove("output", ["commander", "chalk", "ora", "string-width"]),
    packagesAbove("formats", ["commander", "chalk", "ora", "string-width"]),
    packagesAbove("terminal", ["commander"]),
    packagesAbove("reports", ["commander"]),
    packagesAbove("config", ["commander", "chalk", "ora", "string-width"]),
    {
      name: "keyring-at-one-boundary",
      comment:
        "only src/config/keyring.ts loads the OS keyring module, so every failure of it becomes a note in one place (and tests replace it there)",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/config/keyring\\.ts$" },
      to: { path: "node_modules/@napi-rs/keyring" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
  },
};
