import { parseArgs } from 'node:util';
import { loadConfig } from '../infra/config.ts';
import { LOCALES, type Locale } from '../core/i18n/locale.ts';
import { PLAN_KEYS } from '../core/plans.ts';
import { assertNodeVersion } from '../infra/runtime.ts';
import { createKnex, type Knex } from '../db/knex.ts';
import { createStorage } from '../db/store/index.ts';
import { AccountError, createUser, findUserByEmail, setPlan } from '../services/accounts.ts';
import { deleteToken, listTokens, mintToken } from '../services/tokens.ts';

/**
 * What operators do without the web area. Token values are printed once, on stdout, and nowhere else.
 *
 *   node ops/cli.ts user:create --email a@b.c --name "A B" --plan pro [--password ...] [--locale de]
 *   node ops/cli.ts user:plan --email a@b.c --plan agency
 *   node ops/cli.ts token:create --email a@b.c --name ci [--expires 2027-01-01]
 *   node ops/cli.ts token:list --email a@b.c
 *   node ops/cli.ts token:revoke --email a@b.c --id 12
 */
const USAGE = `usage: npm run ops -- user:create|user:plan|token:create|token:list|token:revoke [--email E] [--name N] [--plan ${PLAN_KEYS.join('|')}] [--password P] [--locale ${LOCALES.join('|')}] [--expires YYYY-MM-DD] [--id N]`;

export async function runOperatorCommand(knex: Knex, argv: string[], out: (line: string) => void): Promise<number> {
  const { users, tokens } = createStorage(knex);
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      plan: { type: 'string' },
      password: { type: 'string' },
      locale: { type: 'string' },
      expires: { type: 'string' },
      id: { type: 'string' },
    },
  });
  const command = positionals[0];
  const need = (name: keyof typeof values): string => {
    const value = values[name];
    if (!value) throw new AccountError(name, `--${name} is required for ${command}`);
    return value;
  };
  const userByEmail = async () => {
    const user = await findUserByEmail(users, need('email'));
    if (!user) throw new AccountError('email', `no user with e-mail ${values.email}`);
    return user;
  };

  switch (command) {
    case 'user:create': {
      const plan = need('plan');
      if (!(PLAN_KEYS as readonly string[]).includes(plan))
        throw new AccountError('plan', `--plan must be one of ${PLAN_KEYS.join(', ')}`);
      if (values.locale !== undefined && !(LOCALES as readonly string[]).includes(values.locale))
        throw new AccountError('locale', `--locale must be one of ${LOCALES.join(', ')}`);
      const locale = values.locale as Locale | undefined;
      const user = await createUser(users, {
        email: need('email'),
        name: need('name'),
        plan: plan as (typeof PLAN_KEYS)[number],
        password: values.password ?? null,
        locale,
        // The operator's accounts are verified: the operator vouches for the address.
        emailVerified: true,
        newPassword: true,
      });
      out(`created user ${user.id} <${user.email}> on plan ${user.plan}`);
      return 0;
    }
    case 'user:plan': {
      const user = await setPlan(users, (await userByEmail()).id, need('plan'));
      out(`user ${user.id} <${user.email}> is now on plan ${user.plan}`);
      return 0;
    }
    case 'token:create': {
      const user = await userByEmail();
      let expiresAt: Date | null = null;
      if (values.expires) {
        expiresAt = new Date(values.expires);
        if (Number.isNaN(expiresAt.getTime()))
          throw new AccountError('expires', '--expires must be a date (YYYY-MM-DD or ISO 8601)');
        if (expiresAt.getTime() <= Date.now()) throw new AccountError('expires', '--expires must be in the future');
      }
      const { token, record } = await mintToken(tokens, user.id, need('name'), expiresAt);
      out(
        `token ${record.id} "${record.name}" for <${user.email}>${expiresAt ? `, expires ${expiresAt.toISOString()}` : ''}:`,
      );
      out(token);
      return 0;
    }
    case 'token:list': {
      const user = await userByEmail();
      for (const t of await listTokens(tokens, user.id)) {
        out(
          `${t.id}\t${t.prefix}…\t${t.name}\tcreated ${t.createdAt.toISOString()}\tlast used ${t.lastUsedAt?.toISOString() ?? 'never'}\texpires ${t.expiresAt?.toISOString() ?? 'never'}`,
        );
      }
      return 0;
    }
    case 'token:revoke': {
      const user = await userByEmail();
      const id = Number(need('id'));
      if (!Number.isSafeInteger(id) || id < 1)
        throw new AccountError('id', '--id must be a token id, a positive integer (see token:list)');
      if (!(await deleteToken(tokens, user.id, id)))
        throw new AccountError('id', `<${user.email}> has no token ${values.id}`);
      out(`token ${id} revoked`);
      return 0;
    }
    default:
      out(USAGE);
      return 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  assertNodeVersion();
  const knex = createKnex(loadConfig().databaseUrl, { min: 0, max: 1 });
  runOperatorCommand(knex, process.argv.slice(2), (line) => console.log(line))
    .catch((error: unknown) => {
      console.error(
        error instanceof AccountError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
          ? (error as Error).message
          : error,
      );
      return 1;
    })
    .then(async (code) => {
      await knex.destroy();
      process.exit(code);
    });
}
