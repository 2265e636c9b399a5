/**
 * A bounded subset of Intune's assignment filter rule syntax, evaluated against the device
 * properties Intune's managed device record carries (docs/finding-rules.md, "What applies").
 * Syntax: learn.microsoft.com/mem/intune/fundamentals/filters-device-properties ("Supported
 * operators": -eq, -ne, -startsWith, -notStartsWith, -contains, -notContains, -in, -notIn; rules
 * joined by `and` / `or`, values in double quotes, case-insensitive comparison). Anything outside
 * the subset (parentheses, mixed `and` and `or`, a property the record does not give, -match,
 * -endsWith on versions, …) answers `depends`: the rule is never guessed.
 */

/** Device properties a filter can read, as the managed device record gives them; absent is unknown. */
export interface FilterDeviceProperties {
  deviceName?: string | null;
  manufacturer?: string | null;
  model?: string | null;
  osVersion?: string | null;
  /** `Corporate` or `Personal`, from the managed device's `managedDeviceOwnerType` (company / personal). */
  deviceOwnership?: string | null;
  enrollmentProfileName?: string | null;
  operatingSystemSKU?: string | null;
}

export type FilterRuleVerdict = { kind: 'match' } | { kind: 'noMatch' } | { kind: 'depends'; reason: string };

const PROPERTY_NAMES: Readonly<Record<string, keyof FilterDeviceProperties>> = {
  'device.devicename': 'deviceName',
  'device.manufacturer': 'manufacturer',
  'device.model': 'model',
  'device.osversion': 'osVersion',
  'device.deviceownership': 'deviceOwnership',
  'device.enrollmentprofilename': 'enrollmentProfileName',
  'device.operatingsystemsku': 'operatingSystemSKU',
};

const CLAUSE = /^\s*\(?\s*(device\.[A-Za-z]+)\s+-(eq|ne|startsWith|notStartsWith|contains|notContains|in|notIn)\s+(\[[^\]]*\]|"[^"]*")\s*\)?\s*$/i;

/** Whether `rule` lets a device with `properties` in, or that it cannot be told from what is known. */
export function evaluateFilterRule(rule: string | null | undefined, properties: FilterDeviceProperties): FilterRuleVerdict {
  if (!rule || !rule.trim()) return { kind: 'depends', reason: 'its rule was not read' };
  const hasAnd = /\)\s+and\s+\(|"\s+and\s+\(?\s*device\.|\]\s+and\s+\(?\s*device\./i.test(rule);
  const hasOr = /\)\s+or\s+\(|"\s+or\s+\(?\s*device\.|\]\s+or\s+\(?\s*device\./i.test(rule);
  if (hasAnd && hasOr) return { kind: 'depends', reason: 'its rule mixes "and" and "or"' };
  const joiner = hasOr ? /\s+or\s+(?=\(?\s*device\.)/i : /\s+and\s+(?=\(?\s*device\.)/i;
  const clauses = rule.trim().split(joiner);
  const results: boolean[] = [];
  for (const clause of clauses) {
    const match = clause.match(CLAUSE);
    if (!match) return { kind: 'depends', reason: 'its rule uses syntax this app does not evaluate' };
    const property = PROPERTY_NAMES[match[1]!.toLowerCase()];
    if (!property) return { kind: 'depends', reason: `it reads ${match[1]}, which this app does not know for the device` };
    const value = properties[property];
    if (value === undefined || value === null || value === '') return { kind: 'depends', reason: `the device's ${match[1]} is not known` };
    results.push(compare(value.toLowerCase(), match[2]!.toLowerCase(), readValues(match[3]!)));
  }
  const passes = hasOr ? results.some(Boolean) : results.every(Boolean);
  return passes ? { kind: 'match' } : { kind: 'noMatch' };
}

function readValues(text: string): string[] {
  if (text.startsWith('[')) return [...text.matchAll(/"([^"]*)"/g)].map((match) => match[1]!.toLowerCase());
  return [text.slice(1, -1).toLowerCase()];
}

function compare(value: string, operator: string, values: string[]): boolean {
  const first = values[0] ?? '';
  switch (operator) {
    case 'eq':
      return value === first;
    case 'ne':
      return value !== first;
    case 'startswith':
      return value.startsWith(first);
    case 'notstartswith':
      return !value.startsWith(first);
    case 'contains':
      return value.includes(first);
    case 'notcontains':
      return !value.includes(first);
    case 'in':
      return values.includes(value);
    default:
      return !values.includes(value);
  }
}
