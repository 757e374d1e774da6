// Shell completion scripts written from the commander program itself: its commands, each command's
// options, and the values an option takes (its choices, or a known set for a few flags), so a new
// option or choice is completed without touching this file.
import type { CommandUnknownOpts as Command, Option } from "@commander-js/extra-typings";
import { MESSAGE_STATUSES } from "../../core/statuses.js";
import { fieldPaths } from "../../formats/fields.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/** "profiles": the names `msgstat config profiles` prints when the completion runs, since they change. */
type Values =
  | { kind: "none" }
  | { kind: "words"; words: string[] }
  | { kind: "list"; words: string[] }
  | { kind: "files" }
  | { kind: "profiles" };

const PROFILE_NAMES = "msgstat config profiles 2>/dev/null";

interface Flag {
  names: string[];
  description: string;
  values?: Values;
}

interface CommandModel {
  /** "" for the program itself. */
  name: string;
  description: string;
  flags: Flag[];
  /** Choices of its first argument (completion's shell), if any. */
  argumentWords: string[];
}

/** Values known in advance for flags whose values are not commander choices. */
function knownValues(option: Option): Values | undefined {
  switch (option.long) {
    case "--status":
      return { kind: "list", words: [...MESSAGE_STATUSES] };
    case "--fields":
      return { kind: "list", words: fieldPaths() };
    case "--tz":
      return { kind: "words", words: ["local", "UTC", ...Intl.supportedValuesOf("timeZone")] };
    case "--output":
    case "--to":
    case "--campaigns-file":
      return { kind: "files" };
    case "--profile":
      return { kind: "profiles" };
    default:
      return undefined;
  }
}

function flagOf(option: Option): Flag {
  const names = [option.short, option.long].filter((name): name is string => name !== undefined);
  const takesValue = option.required || option.optional;
  const values = !takesValue
    ? undefined
    : option.argChoices
      ? { kind: "words" as const, words: [...option.argChoices] }
      : (knownValues(option) ?? { kind: "none" as const });
  return { names, description: option.description, values };
}

function modelOf(command: Command, name: string): CommandModel {
  const flags = command.options.filter((option) => !option.hidden).map(flagOf);
  flags.push({ names: ["-h", "--help"], description: "display help for command" });
  const first = command.registeredArguments[0];
  return {
    name,
    description: command.description(),
    flags,
    argumentWords: first?.argChoices ? [...first.argChoices] : [],
  };
}

export function completionModel(program: Command): CommandModel[] {
  return [
    modelOf(program, ""),
    ...program.commands
      .filter((command) => command.name() !== "help")
      .map((command) => modelOf(command, command.name())),
  ];
}

export function completionScript(program: Command, shell: Shell): string {
  const model = completionModel(program);
  switch (shell) {
    case "bash":
      return bashScript(model);
    case "zsh":
      return zshScript(model);
    case "fish":
      return fishScript(model);
  }
}

const words = (list: readonly string[]) => list.join(" ");
const commandNames = (model: CommandModel[]) =>
  model.filter((command) => command.name !== "").map((command) => command.name);
const flagNames = (command: CommandModel) => command.flags.flatMap((flag) => flag.names);

/** `"messages --status"|"batch --status"`: a case pattern per value set, for bash and zsh alike. */
function valueCases(model: CommandModel[], render: (values: Values) => string): string[] {
  const byAction = new Map<string, string[]>();
  for (const command of model) {
    for (const flag of command.flags) {
      if (flag.values === undefined) continue;
      const action = render(flag.values);
      byAction.set(action, [...(byAction.get(action) ?? []), ...flag.names.map((name) => `"${command.name} ${name}"`)]);
    }
  }
  return [...byAction].map(([action, patterns]) => `    ${patterns.join("|")}) ${action} ;;`);
}

function bashScript(model: CommandModel[]): string {
  const action = (values: Values) => {
    switch (values.kind) {
      case "none":
        return "return";
      case "files":
        return 'COMPREPLY=($(compgen -f -- "$cur")); return';
      case "words":
        return `COMPREPLY=($(compgen -W "${words(values.words)}" -- "$cur")); return`;
      case "list":
        return `__msgstat_list "${words(values.words)}"; return`;
      case "profiles":
        return `COMPREPLY=($(compgen -W "$(${PROFILE_NAMES})" -- "$cur")); return`;
    }
  };
  return `# msgstat completion for bash (written by \`msgstat completion bash\`).
# Install: msgstat completion bash > ~/.local/share/bash-completion/completions/msgstat
__msgstat_list() {
  # A comma-separated list: complete the item after the last comma.
  local prefix=""
  [[ "$cur" == *,* ]] && prefix="\${cur%,*},"
  COMPREPLY=($(compgen -P "$prefix" -W "$1" -- "\${cur##*,}"))
  compopt -o nospace 2>/dev/null
}

_msgstat() {
  local cur prev cmd i
  COMPREPLY=()
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev=""
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # --flag=value: bash splits at "=", so the flag is one word further back.
  if [[ "$prev" == "=" ]] && (( COMP_CWORD > 1 )); then prev="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  [[ "$cur" == "=" ]] && cur=""
  cmd=""
  for (( i = 1; i < COMP_CWORD; i++ )); do
    case "\${COMP_WORDS[i]}" in
      ${commandNames(model).join("|")}) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  case "$cmd $prev" in
${valueCases(model, action).join("\n")}
  esac
  if [[ "$cur" == -* ]]; then
    case "$cmd" in
${model
  .filter((command) => command.name !== "")
  .map((command) => `      ${command.name}) COMPREPLY=($(compgen -W "${words(flagNames(command))}" -- "$cur")) ;;`)
  .join("\n")}
      *) COMPREPLY=($(compgen -W "${words(flagNames(model[0]!))}" -- "$cur")) ;;
    esac
    return
  fi
  case "$cmd" in
    "") COMPREPLY=($(compgen -W "${words(commandNames(model))}" -- "$cur")) ;;
${model
  .filter((command) => command.argumentWords.length > 0)
  .map((command) => `    ${command.name}) COMPREPLY=($(compgen -W "${words(command.argumentWords)}" -- "$cur")) ;;`)
  .join("\n")}
  esac
}
complete -F _msgstat msgstat
`;
}

function zshScript(model: CommandModel[]): string {
  const action = (values: Values) => {
    switch (values.kind) {
      case "none":
        return "return";
      case "files":
        return "_files; return";
      case "words":
        return `compadd -- ${words(values.words)}; return`;
      case "list":
        return `compset -P '*,'; compadd -S '' -- ${words(values.words)}; return`;
      case "profiles":
        return `compadd -- \${(f)"$(${PROFILE_NAMES})"}; return`;
    }
  };
  return `#compdef msgstat
# msgstat completion for zsh (written by \`msgstat completion zsh\`).
# Install: msgstat completion zsh > "\${fpath[1]}/_msgstat", or in ~/.zshrc: source <(msgstat completion zsh)
_msgstat() {
  local cur prev cmd i
  cur="\${words[CURRENT]}"
  prev="\${words[CURRENT-1]}"
  cmd=""
  for (( i = 2; i < CURRENT; i++ )); do
    case "\${words[i]}" in
      (${commandNames(model).join("|")}) cmd="\${words[i]}"; break ;;
    esac
  done
  case "$cmd $prev" in
${valueCases(model, action)
  .map((line) => line.replace(/^ {4}(.*?)\) /, "    ($1) "))
  .join("\n")}
  esac
  if [[ "$cur" == -* ]]; then
    case "$cmd" in
${model
  .filter((command) => command.name !== "")
  .map((command) => `      (${command.name}) compadd -- ${words(flagNames(command))} ;;`)
  .join("\n")}
      (*) compadd -- ${words(flagNames(model[0]!))} ;;
    esac
    return
  fi
  case "$cmd" in
    ("") compadd -- ${words(commandNames(model))} ;;
${model
  .filter((command) => command.argumentWords.length > 0)
  .map((command) => `    (${command.name}) compadd -- ${words(command.argumentWords)} ;;`)
  .join("\n")}
  esac
}
if [[ "\${funcstack[1]}" == "_msgstat" ]]; then
  _msgstat "$@"
else
  compdef _msgstat msgstat
fi
`;
}

/** A single-quoted fish string. */
const fishQuote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

function fishScript(model: CommandModel[]): string {
  const lines = [
    "# msgstat completion for fish (written by `msgstat completion fish`).",
    "# Install: msgstat completion fish > ~/.config/fish/completions/msgstat.fish",
    "complete -c msgstat -f",
  ];
  for (const command of model) {
    const condition = command.name === "" ? "__fish_use_subcommand" : `__fish_seen_subcommand_from ${command.name}`;
    if (command.name !== "")
      lines.push(
        `complete -c msgstat -n __fish_use_subcommand -a ${command.name} -d ${fishQuote(command.description)}`,
      );
    if (command.argumentWords.length > 0)
      lines.push(`complete -c msgstat -n ${fishQuote(condition)} -a ${fishQuote(words(command.argumentWords))}`);
    for (const flag of command.flags) {
      const parts = [`complete -c msgstat -n ${fishQuote(condition)}`];
      for (const name of flag.names) parts.push(name.startsWith("--") ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
      const values = flag.values;
      if (values?.kind === "files") parts.push("-r -F");
      else if (values?.kind === "words") parts.push(`-x -a ${fishQuote(words(values.words))}`);
      else if (values?.kind === "list")
        parts.push(`-x -a ${fishQuote(`(__fish_complete_list , "printf '%s\\n' ${words(values.words)}")`)}`);
      else if (values?.kind === "profiles") parts.push(`-x -a ${fishQuote(`(${PROFILE_NAMES})`)}`);
      else if (values?.kind === "none") parts.push("-x");
      parts.push(`-d ${fishQuote(flag.description)}`);
      lines.push(parts.join(" "));
    }
  }
  return `${lines.join("\n")}\n`;
}
