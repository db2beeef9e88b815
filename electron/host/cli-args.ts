/**
 * A small command-line reader for the headless entries: `--name value`, `--name=value` and
 * bare `--flag`. Unknown options are an error, so a typo never silently changes behaviour.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';

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

/**
 * A team database's URL, from `--database` or PLANNER_DATABASE_URL; undefined when neither is
 * given (docs/deployment.md "On PostgreSQL").
 */
export function databaseOption(value: string | true | undefined): string | undefined {
  if (value === true) throw new ArgsError('--database needs a postgres:// URL');
  const url = value ?? process.env.PLANNER_DATABASE_URL;
  if (url === undefined || url === '') return undefined;
  if (!/^postgres(ql)?:\/\//.test(url)) throw new ArgsError('--database must be a postgres:// URL');
  return url;
}

export function portOption(value: string | true | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (value === true || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ArgsError(`--port must be a number from 0 to 65535`);
  }
  return port;
}

/**
 * A secret such as an API key, from `--NAME value`, `--NAME-file PATH` or the environment
 * variable `variable` (used when neither option is given). A value on the command line shows
 * in every user's process list; a file only its owner reads, or the environment, does not.
 * The file holds the key alone; the whitespace around it (a final newline) is not part of it.
 * A file that the group or others may read or write is refused, as ssh refuses such a private key.
 */
export function secretOption(options: Record<string, string | true>, name: string, variable?: string): string | undefined {
  const plain = options[name];
  const file = options[`${name}-file`];
  if (plain !== undefined && file !== undefined) throw new ArgsError(`give --${name} or --${name}-file, not both`);
  if (typeof file === 'string') {
    let text: string;
    let mode: number;
    try {
      // One descriptor for the mode and the text: the file checked is the file read.
      const fd = openSync(file, 'r');
      try {
        mode = fstatSync(fd).mode;
        text = readFileSync(fd, 'utf8');
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT'
          ? 'no such file'
          : code === 'EACCES'
            ? 'permission denied'
            : code === 'EISDIR'
              ? 'it is a folder'
              : String(code ?? error);
      throw new ArgsError(`--${name}-file ${file} cannot be read: ${why}`);
    }
    // As ssh refuses a private key others may read: whoever else reads the key opens the
    // environment (docs/deployment.md "The service"). Windows has no such modes.
    if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
      throw new ArgsError(
        `--${name}-file ${file} can be read or changed by other users of this computer (mode ${(mode & 0o777).toString(8)}); ` +
          `a secret must be readable by its owner alone: run chmod 600 ${file}`,
      );
    }
    const key = text.trim();
    if (key === '') throw new ArgsError(`--${name}-file ${file} is empty`);
    if (/[\r\n]/.test(key)) throw new ArgsError(`--${name}-file ${file} must hold the key alone, on one line`);
    return key;
  }
  if (typeof plain === 'string') {
    if (plain.trim() === '') throw new ArgsError(`--${name} is empty`);
    return plain;
  }
  const fromEnvironment = variable === undefined ? undefined : process.env[variable];
  if (fromEnvironment === undefined) return undefined;
  if (fromEnvironment.trim() === '') throw new ArgsError(`${variable} is set but empty`);
  return fromEnvironment.trim();
}
