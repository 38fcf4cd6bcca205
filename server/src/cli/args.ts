// Command-line parsing in kubectl's conventions: `-f X`, `-fX`, `-f=X`, `--filename X`, `--filename=X`,
// repeatable flags, `-o json`/`-ojson`, and positional TYPE/NAME or TYPE NAME… arguments. A few flags take two
// values (`--remove-finalizer FINALIZER TYPE/NAME`): they are requests, kept in command-line order among the targets.

export class UsageError extends Error {}

interface FlagSpec {
  long: string;
  short?: string;
  /** Takes a value (otherwise a boolean switch). */
  value: boolean;
  repeatable?: boolean;
  /** Values it takes (default 1 when `value`): a request flag's value and then its TYPE/NAME. */
  arity?: 2;
  /** A request besides DELETE: its occurrences are kept in `requests`, in order among the positionals. */
  request?: boolean;
}

/** One occurrence of a request flag: its values, and how many positionals (after the command) came before it. */
export interface RequestFlag {
  flag: string;
  values: string[];
  afterPositionals: number;
}

export interface ParsedArgs {
  command: string;
  flags: Map<string, string[]>;
  positional: string[];
  /** The request flags (`--remove-finalizer` …) in command-line order. */
  requests: RequestFlag[];
}

const FLAGS: FlagSpec[] = [
  { long: 'filename', short: 'f', value: true, repeatable: true },
  { long: 'namespace', short: 'n', value: true },
  { long: 'all-namespaces', short: 'A', value: false },
  { long: 'cascade', value: true },
  { long: 'output', short: 'o', value: true },
  { long: 'plan', value: true },
  { long: 'arrival', value: true },
  { long: 'controllers', value: true },
  { long: 'kube-version', value: true },
  { long: 'fail-on', value: true },
  { long: 'uid', value: true, repeatable: true },
  { long: 'finalizer-owner', value: true, repeatable: true },
  { long: 'max-steps', value: true },
  { long: 'help', short: 'h', value: false },
  { long: 'version', value: false },
  { long: 'recursive', short: 'R', value: false },
  { long: 'kubeconfig', value: true },
  { long: 'context', value: true },
  { long: 'request-timeout', value: true },
  { long: 'slow-after', value: true },
  { long: 'show-settling', value: false },
  { long: 'remove-finalizer', value: true, repeatable: true, arity: 2, request: true },
  { long: 'remove-owner-reference', value: true, repeatable: true, arity: 2, request: true },
  { long: 'set-owner-reference', value: true, repeatable: true, arity: 2, request: true },
  { long: 'scale', value: true, repeatable: true, arity: 2, request: true },
  { long: 'restore-controller', value: true, repeatable: true, request: true },
  { long: 'restore-backend', value: true, repeatable: true, request: true },
  { long: 'set-webhook-failure-policy', value: true, repeatable: true, arity: 2, request: true },
];

/** What a request flag's values are, for its messages. */
const REQUEST_VALUES: Record<string, string> = {
  'remove-finalizer': 'FINALIZER TYPE/NAME',
  'remove-owner-reference': 'OWNER_UID TYPE/NAME',
  'set-owner-reference': 'OWNER_UID=TYPE/NAME[@UID] TYPE/NAME',
  scale: 'REPLICAS TYPE/NAME',
  'restore-controller': 'FINALIZER',
  'restore-backend': 'TYPE/NAME',
  'set-webhook-failure-policy': 'WEBHOOK=Ignore|Fail TYPE/NAME',
};

export function parseArgs(argv: string[]): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positional: string[] = [];
  const requests: RequestFlag[] = [];
  const set = (spec: FlagSpec, value: string) => {
    const list = flags.get(spec.long) ?? [];
    if (!spec.repeatable && list.length) list.length = 0;
    list.push(value);
    flags.set(spec.long, list);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const spec = FLAGS.find((f) => f.long === name);
      if (!spec) throw new UsageError(`unknown flag: --${name}`);
      if (!spec.value) {
        if (eq >= 0 && !['true', 'false'].includes(arg.slice(eq + 1))) throw new UsageError(`flag --${name} takes no value`);
        set(spec, eq >= 0 ? arg.slice(eq + 1) : 'true');
      } else {
        let value: string;
        if (eq >= 0) value = arg.slice(eq + 1);
        else {
          if (i + 1 >= argv.length)
            throw new UsageError(
              `flag needs ${spec.arity === 2 ? `two arguments: --${name} ${REQUEST_VALUES[name]}` : `an argument: --${name}`}`,
            );
          value = argv[++i];
        }
        set(spec, value);
        if (spec.request) {
          // A finalizer, a uid, a TYPE/NAME or a webhook never starts with "-": `--remove-finalizer -n kafka …` forgot it.
          if (name !== 'scale' && /^-./.test(value))
            throw new UsageError(`flag --${name} needs ${REQUEST_VALUES[name]} first, got ${value}`);
          const values = [value];
          if (spec.arity === 2) {
            // The second value is a TYPE/NAME, never a flag: `--scale 2 -n shop` forgot it.
            const next = argv[i + 1];
            if (next === undefined || (next.startsWith('-') && next.length > 1))
              throw new UsageError(
                `flag --${name} ${value}: needs a TYPE/NAME after ${JSON.stringify(value)} (--${name} ${REQUEST_VALUES[name]})${next === undefined ? '' : `, got ${next}`}`,
              );
            values.push(next);
            i++;
          }
          requests.push({ flag: name, values, afterPositionals: Math.max(0, positional.length - 1) });
        }
      }
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      const spec = FLAGS.find((f) => f.short === arg[1]);
      if (!spec) throw new UsageError(`unknown shorthand flag: '${arg[1]}' in ${arg}`);
      if (!spec.value) {
        if (arg.length > 2) throw new UsageError(`flag -${arg[1]} takes no value`);
        set(spec, 'true');
      } else if (arg.length > 2) set(spec, arg[2] === '=' ? arg.slice(3) : arg.slice(2));
      else {
        if (i + 1 >= argv.length) throw new UsageError(`flag needs an argument: '${arg[1]}' in -${arg[1]}`);
        set(spec, argv[++i]);
      }
      continue;
    }
    positional.push(arg);
  }
  const command = positional.shift() ?? '';
  return { command, flags, positional, requests };
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return v?.[v.length - 1];
}

export function flagList(args: ParsedArgs, name: string): string[] {
  return args.flags.get(name) ?? [];
}

export function oneOf<T extends string>(args: ParsedArgs, name: string, allowed: readonly T[], fallback: T): T {
  const v = flag(args, name);
  if (v === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(v))
    throw new UsageError(`invalid value "${v}" for --${name}: must be one of ${allowed.join(', ')}`);
  return v as T;
}

/** Rejects flags that the command does not take, so typos never pass silently. */
export function allowOnly(args: ParsedArgs, allowed: string[]): void {
  for (const name of args.flags.keys()) {
    if (!allowed.includes(name) && name !== 'help') throw new UsageError(`flag --${name} is not used by "${args.command}"`);
  }
}
