/**
 * A small command-line reader for the headless entries: `--name value`, `--name=value` and
 * bare `--flag`. Unknown options are an error, so a typo never silently changes behaviour.
 */
export interface ParsedArgs {
  options: Record<string, string | true>;
  positional: string[];
}

export class ArgsError extends Error {}

export function parseArgs(argv: readonly string[], known: { values: readonly string[]; flags: readonly string[] }): ParsedArgs {
  const options: Record<string, string | true> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (known.flags.includes(name)) {
      if (eq !== -1) throw new ArgsError(`--${name} takes no value`);
      options[name] = true;
    } else if (known.values.includes(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new ArgsError(`--${name} needs a value`);
      options[name] = value;
    } else {
      throw new ArgsError(`unknown option --${name}`);
    }
  }
  return { options, positional };
}

export function portOption(value: string | true | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (value === true || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ArgsError(`--port must be a number from 0 to 65535`);
  }
  return port;
}
