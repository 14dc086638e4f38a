import type { WebhookDelivery } from '../../core/webhooks/delivery.ts';
import type { WebhookSettingsView } from '../../services/webhook-settings.ts';
import { deliveryPage, webhookPage, type WebhookPageInput } from '../../web/webhooks/page.ts';

const CSRF = 'sample-csrf-token';
const AT = new Date('2026-11-20T10:00:00Z');

const settings: WebhookSettingsView = {
  endpoint: {
    userId: 7,
    url: 'https://hooks.example.com/in',
    headerName: 'X-Secret',
    headerValueSet: true,
    events: ['scan.completed'],
    failingSince: AT,
    disabledAt: AT,
    disabledReason: 'gone',
    previousSecretExpiresAt: AT,
    createdAt: AT,
    updatedAt: AT,
    headerValueEncrypted: 'sealed',
    secretEncrypted: 'sealed',
    previousSecretEncrypted: 'sealed',
  },
  secret: 'whsec_current',
  previousSecret: { secret: 'whsec_previous', expiresAt: AT },
};

const delivery: WebhookDelivery = {
  id: 41,
  messageId: 'msg_41',
  userId: 7,
  event: 'scan.completed',
  payload: { type: 'scan.completed' } as unknown as WebhookDelivery['payload'],
  status: 'failed',
  webhookAttempts: 2,
  webhookResponseCode: 500,
  webhookLastError: 'HTTP 500',
  workflowStartedAt: AT,
  createdAt: AT,
  completedAt: AT,
};

const input = (locale: 'en' | 'de', extra: Partial<WebhookPageInput> = {}): WebhookPageInput => ({
  chrome: {
    locale,
    user: { email: 'owner@example.com' },
    csrf: CSRF,
    current: 'settings',
    path: '/account/notifications',
  },
  csrf: CSRF,
  planLabel: 'Pro',
  settings,
  deliveries: [delivery],
  ...extra,
});

describe('the notification settings page', () => {
  it('speaks German: headings, labels, events, history and the disabled endpoint', () => {
    const page = webhookPage(input('de', { notice: 'Einstellungen gespeichert.' }));
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('<title>Benachrichtigungen · WebPerf</title>');
    expect(page).toContain('<h1>Benachrichtigungen</h1>');
    for (const heading of ['Endpunkt deaktiviert', 'Webhook-Endpunkt', 'Signaturschlüssel', 'Test', 'Zustellverlauf'])
      expect(page).toContain(`<h2>${heading}</h2>`);
    expect(page).toContain('<label for="url">Webhook-URL</label>');
    expect(page).toContain('<label for="header_value">Wert des Headers</label>');
    expect(page).toContain('<legend>Ereignisse</legend>');
    expect(page).toContain('<code>scan.completed</code>: ein Scan ist abgeschlossen</label>');
    expect(page).toContain('der Empfänger antwortete mit 410 Gone');
    expect(page).toContain('Sendet ein <code>ping</code>-Ereignis');
    expect(page).toContain('<th scope="col">Ereignis</th>');
    expect(page).toContain('<td class="status">fehlgeschlagen</td>');
    expect(page).toContain('aria-label="Zustellung 41 erneut senden">Erneut senden</button>');
    expect(page).toContain('id="save-settings">Speichern</button>');
    expect(page).toContain('id="notice" role="status">Einstellungen gespeichert.</p>');
    for (const english of [
      'Webhook endpoint',
      'Signing secret',
      'Delivery history',
      'Save</button>',
      'Resend',
      'a scan finishes',
    ])
      expect(page).not.toContain(english);
  });

  it('below Pro it says in German which plan has webhooks', () => {
    const page = webhookPage(input('de', { settings: null, planLabel: 'Starter', deliveries: [] }));
    expect(page).toContain('<html lang="de">');
    expect(page).toContain(
      '<p id="plan-required">Webhooks gibt es ab dem Tarif Pro. Ihr Tarif ist Starter. <a href="/settings/plan" class="plan-link">Ihren Tarif ansehen und ein Upgrade anfragen</a></p>',
    );
  });

  it('keeps its English words', () => {
    const page = webhookPage(input('en'));
    expect(page).toContain('<html lang="en">');
    for (const heading of ['Endpoint disabled', 'Webhook endpoint', 'Signing secret', 'Test', 'Delivery history'])
      expect(page).toContain(`<h2>${heading}</h2>`);
    expect(page).toContain('Sends a <code>ping</code> event to the URL');
    expect(page).toContain('<td class="status">failed</td>');
    // Times in the date format of the other pages, the instant in the datetime attribute.
    expect(page).toContain('<time datetime="2026-11-20T10:00:00+00:00">20 Nov 2026, 10:00 UTC</time>');
    expect(webhookPage(input('de'))).toContain('20. Nov. 2026, 10:00 UTC</time>');
  });

  it("the delivery's attempts page speaks German", () => {
    const page = deliveryPage({ chrome: input('de').chrome, delivery, attempts: [] });
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('<h1>Zustellung 41: <code>scan.completed</code></h1>');
    expect(page).toContain('fehlgeschlagen, 2 Versuch(e).');
    expect(page).toContain('<h2>Nutzdaten</h2>');
    expect(page).toContain('<th scope="col">Antwort (erstes 1 KB)</th>');
  });
});
