import type { Locale } from '../../core/i18n/locale.ts';
import { SCOPE_TEXT } from '../../core/oauth/scopes.ts';
import { settingsPage } from '../../web/settings/page.ts';
import { DEFAULT_EMAIL_PREFERENCES } from '../../core/email-preferences.ts';
import { planFor } from '../../core/plans.ts';
import { consentPage, consentRefusedPage } from '../../web/oauth/consent-page.ts';

const chrome = (locale: Locale) => ({ locale, user: { email: 'owner@example.com' }, csrf: 'CSRF', path: '/x' });

const consent = (locale: Locale, verified: boolean) =>
  consentPage({
    chrome: chrome(locale),
    csrf: 'TOKEN123',
    action: '/oauth/consent/abc',
    app: { name: '<script>alert(1)</script> Helper', clientIdHost: 'app.example', verified },
    redirectHost: '127.0.0.1:8976',
    scopes: ['read', 'write'],
    user: { name: 'Ada', email: 'ada@example.com' },
  });

describe.each(['en', 'de'] as const)('consent page (%s)', (locale) => {
  it('names the app (escaped), its host, the account, every scope, where it returns, and offers approve and deny', () => {
    const page = consent(locale, true);
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Helper');
    expect(page).toContain('id="client-host">app.example<');
    expect(page).toContain('ada@example.com');
    for (const scope of ['read', 'write'] as const) expect(page).toContain(SCOPE_TEXT[scope][locale]);
    expect(page).toContain('id="redirect-host">127.0.0.1:8976<');
    expect(page).toMatch(/<form method="post" action="\/oauth\/consent\/abc"/);
    expect(page).toContain('name="_csrf" value="TOKEN123"');
    expect(page).toMatch(/name="decision" value="approve"/);
    expect(page).toMatch(/name="decision" value="deny"/);
  });

  it('marks registered apps unverified, and only those', () => {
    expect(consent(locale, false)).toContain('id="unverified"');
    expect(consent(locale, true)).not.toContain('id="unverified"');
  });

  it('the refused page names the plan and leads back to the app', () => {
    const page = consentRefusedPage({
      chrome: chrome(locale),
      reason: 'plan',
      planLabel: 'Free',
      continueUrl: 'http://127.0.0.1:3000/oauth/authorize/xyz',
    });
    expect(page).toContain('Starter');
    expect(page).toContain('(Free)');
    expect(page).toContain('href="http://127.0.0.1:3000/oauth/authorize/xyz"');
  });
});

describe('authorised apps in the settings', () => {
  const base = {
    chrome: chrome('en'),
    plan: planFor('starter'),
    csrf: 'CSRF',
    tokens: [],
    mcpUrl: 'https://perf.example/mcp',
    profile: { name: 'Ada', email: 'owner@example.com', locale: 'en' as const },
    sessions: [],
    emailPreferences: DEFAULT_EMAIL_PREFERENCES,
  };

  it('lists each app with its host, unverified marker, scopes and a revoke form', () => {
    const page = settingsPage({
      ...base,
      apps: [
        {
          grantId: 'g1',
          name: 'Claude',
          clientIdHost: 'claude.ai',
          verified: true,
          scopes: ['read', 'write'],
          authorisedAt: new Date('2026-11-01T10:00:00Z'),
          lastUsedAt: null,
        },
        {
          grantId: 'g2',
          name: 'Script <b>',
          clientIdHost: '127.0.0.1:9999',
          verified: false,
          scopes: ['read'],
          authorisedAt: new Date('2026-11-02T10:00:00Z'),
          lastUsedAt: new Date('2026-11-03T10:00:00Z'),
        },
      ],
    });
    expect(page).toContain('data-grant-id="g1"');
    expect(page).toContain('action="/settings/apps/g1/revoke"');
    expect(page).toContain('action="/settings/apps/g2/revoke"');
    expect(page).toContain('aria-label="Revoke access of Claude"');
    expect(page).toContain('Script &lt;b&gt;');
    const g1 = page.slice(page.indexOf('data-grant-id="g1"'), page.indexOf('data-grant-id="g2"'));
    const g2 = page.slice(page.indexOf('data-grant-id="g2"'));
    expect(g1).not.toContain('unverified');
    expect(g2).toContain('unverified');
    expect(g1).toContain('read, act');
    expect(g1).toContain('never');
  });

  it('says where apps come from when there are none', () => {
    const page = settingsPage({ ...base, apps: [] });
    expect(page).toContain('id="no-apps"');
    expect(page).toContain('https://perf.example/mcp');
  });
});
