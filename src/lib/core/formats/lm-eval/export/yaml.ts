// The little YAML the harness's task files need, written by hand: block mappings and lists, every
// string double-quoted in JSON's syntax (a subset of YAML's double-quoted scalars), and the harness's
// `!function` tag. Values are plain data; nothing here reads YAML.

/** A `!function module.name` hook, resolved by the harness against the folder's Python file. */
export class PyFunction {
  constructor(readonly ref: string) {}
}

export type YamlValue = string | number | boolean | null | PyFunction | readonly YamlValue[] | { readonly [key: string]: YamlValue };

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function scalar(value: string | number | boolean | null | PyFunction): string {
  if (value instanceof PyFunction) return `!function ${value.ref}`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`YAML: ${value} is not a finite number`);
  return String(value);
}

const isMapping = (value: YamlValue): value is { readonly [key: string]: YamlValue } =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof PyFunction);

function lines(value: YamlValue, indent: string): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${indent}[]`];
    return value.flatMap((entry: YamlValue) => {
      const inner = lines(entry, `${indent}  `);
      return [`${indent}- ${inner[0].trimStart()}`, ...inner.slice(1)];
    });
  }
  if (isMapping(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([key, entry]) => {
      const name = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
      const nested = Array.isArray(entry) ? entry.length > 0 : isMapping(entry) && Object.keys(entry).length > 0;
      return nested ? [`${indent}${name}:`, ...lines(entry, `${indent}  `)] : [`${indent}${name}: ${lines(entry, '')[0]}`];
    });
  }
  return [`${indent}${scalar(value as string | number | boolean | null | PyFunction)}`];
}

/** A YAML document for a top-level mapping, `comment` lines first. */
export function toYaml(doc: { readonly [key: string]: YamlValue }, comment: readonly string[] = []): string {
  return [...comment.map((line) => `# ${line}`), ...lines(doc, '')].join('\n') + '\n';
}
