import { runOperatorCommand } from '../../ops/cli.ts';
import { call, startTestApi, type TestApi } from '../harness/api.ts';
import { uniqueName } from '../harness/isolated.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

async function run(...argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runOperatorCommand(api.db.knex, argv, (line) => lines.push(line));
  return { code, lines };
}

describe('operator command line', () => {
  it('creates a user, changes the plan, mints a token that works, lists and revokes it', async () => {
    const email = `${uniqueName('op')}@example.com`;
    expect((await run('user:create', '--email', email, '--name', 'Op User', '--plan', 'free')).code).toBe(0);
    const created = await api.db.knex('users').where({ email }).first('email_verified_at');
    expect(created.email_verified_at).toBeInstanceOf(Date);

    const minted = await run('token:create', '--email', email, '--name', 'deploy bot');
    expect(minted.code).toBe(0);
    const token = minted.lines[1]!;
    expect(token).toMatch(/^wpt_/);
    expect((await call(api, '/me', { token })).status).toBe(403);

    expect((await run('user:plan', '--email', email, '--plan', 'agency')).lines).toEqual([
      expect.stringMatching(/is now on plan agency$/),
    ]);
    const me = await call(api, '/me', { token });
    expect(me.status).toBe(200);
    expect((me.body.data as { plan: { key: string } }).plan.key).toBe('agency');

    const listed = await run('token:list', '--email', email);
    expect(listed.lines).toHaveLength(1);
    expect(listed.lines[0]).toContain('deploy bot');
    expect(listed.lines[0]).not.toContain(token);
    const id = listed.lines[0]!.split('\t')[0]!;

    expect((await run('token:revoke', '--email', email, '--id', id)).code).toBe(0);
    expect((await call(api, '/me', { token })).status).toBe(401);
  });

  it('refuses bad input with a message and changes nothing', async () => {
    await expect(run('user:create', '--email', 'x@example.com', '--name', 'X', '--plan', 'gold')).rejects.toThrow(
      /--plan must be one of free, starter, pro, agency/,
    );
    await expect(run('user:create', '--email', 'not-an-email', '--name', 'X', '--plan', 'pro')).rejects.toThrow(
      /valid email/,
    );
    // New passwords follow the one rule (services/password-rule.ts); the operator's users are verified.
    await expect(
      run('user:create', '--email', 'x@example.com', '--name', 'X', '--plan', 'pro', '--password', 'password1234'),
    ).rejects.toThrow(/too easy to guess/);
    await expect(run('token:create', '--email', 'nobody@example.com', '--name', 'x')).rejects.toThrow(
      /no user with e-mail/,
    );
    await expect(run('token:create', '--email', 'x@example.com')).rejects.toThrow(/no user|--name is required/);
    expect(await api.db.knex('users').where({ email: 'x@example.com' })).toHaveLength(0);
    const email = `${uniqueName('bad')}@example.com`;
    await run('user:create', '--email', email, '--name', 'B', '--plan', 'pro');
    await expect(run('token:revoke', '--email', email, '--id', 'abc')).rejects.toThrow(/--id must be a token id/);
    await expect(run('token:create', '--email', email, '--name', 'old', '--expires', '2020-01-01')).rejects.toThrow(
      /--expires must be in the future/,
    );
    expect((await run('token:list', '--email', email)).lines).toEqual([]);
    expect((await run('nonsense')).code).toBe(2);
  });

  it("records the language of a user's e-mails (English when not given)", async () => {
    const german = `${uniqueName('de')}@example.com`;
    await run('user:create', '--email', german, '--name', 'D', '--plan', 'pro', '--locale', 'de');
    expect(await api.db.knex('users').where({ email: german }).first('locale')).toEqual({ locale: 'de' });
    await expect(
      run(
        'user:create',
        '--email',
        `${uniqueName('fr')}@example.com`,
        '--name',
        'F',
        '--plan',
        'pro',
        '--locale',
        'fr',
      ),
    ).rejects.toThrow(/--locale must be one of en, de/);
  });
});
