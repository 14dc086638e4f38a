import { readFileSync } from 'node:fs';
import { BUDGET_KEYS, CommandError, SCORE_BUDGETS, type Budget, type BudgetKey } from './budget.ts';

/**
 * The config file (`--config FILE`, JSON): budgets per URL pattern.
 *
 *   { "budgets": [ { "url": "https://shop.example.com/**", "budget": { "overall": 80, "lcp": 2500 } },
 *                  { "url": "https://shop.example.com/checkout/*", "budget": { "lcp": 3000 } } ] }
 *
 * Every entry whose pattern matches the scanned URL applies, in file order, so a later entry's limit replaces an
 * earlier one's for the same key; `--budget` on the command line replaces both.
 */
export interface BudgetConfig {
  budgets: Array<{ url: string; budget: Budget }>;
}

/** `*` any characters but `/`, `**` any characters, `?` one character but `/`; the rest literal; the whole URL. */
export function urlPattern(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads and checks the file: each mistake named with where it is, as a CommandError (exit 2). */
export function loadConfig(path: string): BudgetConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CommandError(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
  const problem = (where: string, what: string) => new CommandError(`config file ${path}: ${where} ${what}`);
  if (!isObject(parsed) || !Array.isArray(parsed.budgets))
    throw problem('the top level', 'must be { "budgets": [...] }');
  const budgets = parsed.budgets.map((entry: unknown, i) => {
    const where = `budgets[${i}]`;
    if (!isObject(entry) || typeof entry.url !== 'string' || entry.url === '' || !isObject(entry.budget))
      throw problem(where, 'must be { "url": "pattern", "budget": { "key": number, ... } }');
    const budget: Budget = {};
    for (const [key, limit] of Object.entries(entry.budget)) {
      if (!(BUDGET_KEYS as readonly string[]).includes(key))
        throw problem(`${where}.budget`, `has an unknown key "${key}"; known: ${BUDGET_KEYS.join(', ')}`);
      if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0)
        throw problem(`${where}.budget.${key}`, 'must be a non-negative number');
      if ((SCORE_BUDGETS as readonly string[]).includes(key) && limit > 100)
        throw problem(`${where}.budget.${key}`, 'is a score: 0-100');
      budget[key as BudgetKey] = limit;
    }
    return { url: entry.url, budget };
  });
  return { budgets };
}

/** The budget of one URL: every matching entry's, later entries winning, then the command line's. */
export function budgetFor(config: BudgetConfig | null, url: string, commandLine: Budget): Budget {
  const matching = (config?.budgets ?? []).filter((entry) => urlPattern(entry.url).test(url));
  return Object.assign({}, ...matching.map((entry) => entry.budget), commandLine) as Budget;
}
