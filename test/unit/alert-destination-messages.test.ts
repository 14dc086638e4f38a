import {
  detailFacts,
  rumAlertChatNotice,
  scoreAlertNotice,
  testChatNotice,
  type ChatNotice,
} from '../../core/alert-destinations/notice.ts';
import { SLACK_LIMITS, slackMessage, type SlackBlock } from '../../core/alert-destinations/slack.ts';
import { ADAPTIVE_CARD_CONTENT_TYPE, teamsMessage } from '../../core/alert-destinations/teams.ts';
import { chatAnswer, destinationUrlHint, destinationUrlProblem } from '../../core/alert-destinations/url.ts';
import { alertText } from '../../core/i18n/alerts.ts';
import type { Alert } from '../../core/monitoring/alert.ts';
import type { RumAlertNotice } from '../../core/webhooks/payloads.ts';
import { testAlert } from './alert-fixture.ts';

const BASE = 'https://perf.example.com';
const alert = testAlert({
  url: 'https://shop.example.com/checkout?step=2',
  resolvedScanPublicId: 'b'.repeat(26),
  resolvedAt: new Date('2026-11-22T12:00:00Z'),
});
const rum: RumAlertNotice = {
  alertName: 'Checkout LCP',
  domain: 'shop.example.com',
  siteId: 7,
  metric: 'LCP',
  p75: 3412.4,
  threshold: 2500,
  samples: 120,
  windowMinutes: 30,
  at: '2026-11-20T12:05:00+00:00',
};

const sections = (blocks: SlackBlock[]) => blocks.filter((b) => b.type === 'section');
const textsOf = (blocks: SlackBlock[]): string[] =>
  blocks.flatMap((b) =>
    b.type === 'context'
      ? b.elements.map((e) => e.text)
      : b.type === 'section'
        ? [b.text.text, ...(b.fields ?? []).map((f) => f.text)]
        : [b.text.text],
  );

describe('chat notices', () => {
  test("a score alert: title and message as alertText writes them, the details as facts, the page's host and path, the report", () => {
    const notice = scoreAlertNotice(alert, 'triggered', 'en');
    expect(notice).toMatchObject({
      state: 'triggered',
      severity: 'critical',
      title: 'Overall score below the critical threshold',
      message: expect.stringContaining('The overall score of shop.example.com/checkout?step=2 is 45'),
      page: { host: 'shop.example.com', path: '/checkout?step=2', url: alert.url },
      link: { kind: 'report', path: `/reports/${'a'.repeat(26)}` },
      at: '2026-11-20T12:00:00+00:00',
    });
    expect(notice.facts).toEqual([
      { label: 'Score', value: 'Overall' },
      { label: 'Value', value: '45' },
      { label: 'Reference', value: '50' },
      {
        label: 'Below their thresholds',
        value:
          'score Overall, value 45, threshold 50, severity critical; score Speed, value 61, threshold 70, severity warning',
      },
      { label: 'Region', value: 'eu' },
    ]);
    // Resolved: the resolving scan's report, the resolution time, German words in German.
    const resolved = scoreAlertNotice(alert, 'resolved', 'de');
    expect(resolved.link.path).toBe(`/reports/${'b'.repeat(26)}`);
    expect(resolved.at).toBe('2026-11-22T12:00:00+00:00');
    expect(resolved.facts[0]).toEqual({ label: 'Score', value: 'Gesamt' });
    expect(resolved.facts[1]).toEqual({ label: 'Wert', value: '45' });
  });

  test('details of a type this module does not know are facts all the same: labelled from their keys, nested values flattened', () => {
    const facts = detailFacts(
      {
        metric: 'LCP',
        value: 3200.5,
        budget: 2500,
        unit: 'ms',
        overBy: 700.5,
        baseline: { median: 2400, scans: 5 },
        nothing: null,
      },
      'en',
    );
    expect(facts).toEqual([
      { label: 'Metric', value: 'LCP' },
      { label: 'Value', value: '3,200.5' },
      { label: 'Budget', value: '2,500' },
      { label: 'Unit', value: 'ms' },
      { label: 'Over by', value: '700.5' },
      { label: 'Baseline', value: 'median 2,400, scans 5' },
    ]);
    expect(detailFacts({ note: 'x'.repeat(1000) }, 'en')[0]!.value).toHaveLength(300);
    expect(detailFacts(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])), 'en')).toHaveLength(8);
  });

  test("a budget alert (metric_over_budget): alertText's title and message, its breaches as facts, with no code of its own", () => {
    const breach = {
      metric: 'lcp_ms' as const,
      formFactor: 'mobile' as const,
      value: 3200,
      budget: 2500,
      unit: 'ms' as const,
      severity: 'warning' as const,
    };
    const budgetAlert: Alert = {
      ...alert,
      type: 'metric_over_budget',
      severity: 'warning',
      details: { score: 'speed', value: 3200, reference: 2500, budget: breach, overBudget: [breach] },
    };
    const notice = scoreAlertNotice(budgetAlert, 'triggered', 'en');
    expect(notice.title).toBe(alertText(budgetAlert, 'en').title);
    expect(notice.message).toBe(alertText(budgetAlert, 'en').message);
    expect(notice.facts).toContainEqual({
      label: 'Budget',
      value: 'metric lcp_ms, form factor mobile, value 3,200, budget 2,500, unit ms, severity warning',
    });
    expect(notice.facts).toContainEqual({
      label: 'Over budget',
      value: 'metric lcp_ms, form factor mobile, value 3,200, budget 2,500, unit ms, severity warning',
    });
    const slack = slackMessage(notice, BASE);
    expect(slack.text).toBe(`Triggered (Warning): ${notice.title} – shop.example.com/checkout?step=2`);
    const teams = teamsMessage(notice, BASE).attachments[0]!.content;
    expect(teams.body[0]).toMatchObject({ color: 'Warning' });
  });

  test('a live-data alert: the reading as facts, the site, the dashboard', () => {
    const notice = rumAlertChatNotice(rum, 'triggered', 'en');
    expect(notice).toMatchObject({
      severity: null,
      title: 'Checkout LCP: LCP p75',
      message: 'The p75 of LCP on shop.example.com is 3,412 ms, above the threshold of 2,500 ms.',
      page: { host: 'shop.example.com', url: null },
      link: { kind: 'live', path: '/live/7' },
    });
    expect(notice.facts.map((f) => f.label)).toEqual(['Metric', 'p75', 'Threshold', 'Page views', 'Window (minutes)']);
    expect(rumAlertChatNotice(rum, 'resolved', 'de').message).toContain('wieder bei 3.412 ms');
  });
});

describe('Slack message', () => {
  test("Block Kit as Slack's incoming webhooks take it: header (plain_text), sections in mrkdwn with fields, a context with the link", () => {
    const message = slackMessage(scoreAlertNotice(alert, 'triggered', 'en'), BASE);
    expect(message.text).toBe(
      'Triggered (Critical): Overall score below the critical threshold – shop.example.com/checkout?step=2',
    );
    expect(message.blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'context']);
    const [header, main, page, context] = message.blocks as [
      Extract<SlackBlock, { type: 'header' }>,
      Extract<SlackBlock, { type: 'section' }>,
      Extract<SlackBlock, { type: 'section' }>,
      Extract<SlackBlock, { type: 'context' }>,
    ];
    expect(header.text).toEqual({
      type: 'plain_text',
      text: 'Triggered: Overall score below the critical threshold',
      emoji: true,
    });
    expect(main.text.type).toBe('mrkdwn');
    expect(main.text.text).toMatch(/^:red_circle: The overall score of shop\.example\.com\/checkout\?step=2 is 45/);
    expect(main.fields!.slice(0, 3)).toEqual([
      { type: 'mrkdwn', text: '*Status*\nTriggered' },
      { type: 'mrkdwn', text: '*Severity*\nCritical' },
      { type: 'mrkdwn', text: '*Score*\nOverall' },
    ]);
    expect(page.text.text).toBe('*Page*\n<https://shop.example.com/checkout?step=2|shop.example.com/checkout?step=2>');
    expect(context.elements[0]).toEqual({
      type: 'mrkdwn',
      text: `<${BASE}/reports/${'a'.repeat(26)}|Open the report>`,
    });
    expect(context.elements[1]!.text).toBe(
      `<!date^${Date.UTC(2026, 10, 20, 12) / 1000}^{date_short_pretty} {time}|2026-11-20T12:00:00+00:00>`,
    );
  });

  test("Slack's limits hold for long texts and many details, and mrkdwn's control characters are escaped", () => {
    const long: ChatNotice = {
      ...testChatNotice('en', new Date('2026-11-20T12:00:00Z')),
      state: 'triggered',
      severity: 'warning',
      title: 'T'.repeat(400),
      message: `<script>&${'m'.repeat(5000)}`,
      facts: Array.from({ length: 15 }, (_, i) => ({ label: `L${i}`, value: '>'.repeat(3000) })),
      page: { host: 'a.example', path: `/${'p'.repeat(4000)}`, url: `https://a.example/x|y>z` },
    };
    const message = slackMessage(long, BASE);
    const header = message.blocks[0] as Extract<SlackBlock, { type: 'header' }>;
    expect([...header.text.text].length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    for (const section of sections(message.blocks) as Array<Extract<SlackBlock, { type: 'section' }>>) {
      expect([...section.text.text].length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
      expect((section.fields ?? []).length).toBeLessThanOrEqual(SLACK_LIMITS.fields);
      for (const field of section.fields ?? [])
        expect([...field.text].length).toBeLessThanOrEqual(SLACK_LIMITS.fieldText);
    }
    expect(message.text.length).toBeLessThanOrEqual(SLACK_LIMITS.text);
    const main = message.blocks[1] as Extract<SlackBlock, { type: 'section' }>;
    expect(main.text.text).toContain('&lt;script&gt;&amp;');
    // No raw < or > except in links and the date token; no entity cut in half.
    for (const text of textsOf(message.blocks)) {
      expect(text.replace(/<[^<>]*>/g, '')).not.toMatch(/[<>]/);
      expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/);
    }
    expect((message.blocks[2] as Extract<SlackBlock, { type: 'section' }>).text.text).toContain(
      '<https://a.example/x%7Cy%3Ez|',
    );
  });
});

describe('Teams message', () => {
  test('a message with one Adaptive Card 1.4: heading coloured by severity, message, FactSet with the page, Action.OpenUrl to the report', () => {
    const message = teamsMessage(scoreAlertNotice(alert, 'triggered', 'en'), BASE);
    expect(message.type).toBe('message');
    expect(message.attachments).toHaveLength(1);
    const [attachment] = message.attachments;
    expect(attachment!.contentType).toBe(ADAPTIVE_CARD_CONTENT_TYPE);
    expect(attachment!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = attachment!.content;
    expect(card).toMatchObject({
      type: 'AdaptiveCard',
      version: '1.4',
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    });
    expect(card.body.map((b) => b.type)).toEqual(['TextBlock', 'TextBlock', 'FactSet', 'TextBlock']);
    expect(card.body[0]).toMatchObject({
      text: 'Triggered: Overall score below the critical threshold',
      color: 'Attention',
      weight: 'Bolder',
      wrap: true,
    });
    const facts = (card.body[2] as { facts: Array<{ title: string; value: string }> }).facts;
    expect(facts.slice(0, 3)).toEqual([
      { title: 'Status', value: 'Triggered' },
      { title: 'Severity', value: 'Critical' },
      { title: 'Page', value: '[shop.example.com/checkout?step=2](https://shop.example.com/checkout?step=2)' },
    ]);
    expect(card.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open the report', url: `${BASE}/reports/${'a'.repeat(26)}` },
    ]);
    const resolved = teamsMessage(scoreAlertNotice(alert, 'resolved', 'de'), BASE).attachments[0]!.content;
    expect(resolved.body[0]).toMatchObject({ color: 'Good', text: expect.stringMatching(/^Behoben: /) });
    expect(resolved.actions[0]!.title).toBe('Bericht öffnen');
    const live = teamsMessage(rumAlertChatNotice(rum, 'triggered', 'en'), BASE).attachments[0]!.content;
    expect(live.actions[0]!.url).toBe(`${BASE}/live/7`);
    expect(JSON.stringify(live).length).toBeLessThan(28_000);
  });

  test('long texts stay far under the 28 KB a Teams message may have; markdown characters of user text stay literal', () => {
    const notice: ChatNotice = {
      ...testChatNotice('en', new Date()),
      title: '*'.repeat(5000),
      message: '_[x](y)'.repeat(3000),
      facts: Array.from({ length: 20 }, (_, i) => ({ label: `L${i}`, value: 'v'.repeat(5000) })),
    };
    const body = JSON.stringify(teamsMessage(notice, BASE));
    expect(Buffer.byteLength(body)).toBeLessThan(28_000);
    const card = teamsMessage(notice, BASE).attachments[0]!.content;
    expect((card.body[1] as { text: string }).text.startsWith('\\_\\[x\\](y)')).toBe(true);
  });
});

describe('destination URLs and answers', () => {
  test('https only (http to loopback only when loopback callbacks are allowed), no credentials, any host', () => {
    expect(destinationUrlProblem('https://hooks.slack.com/services/T0/B0/xyz', false)).toBeNull();
    expect(destinationUrlProblem('https://contoso.webhook.office.com/webhookb2/abc', false)).toBeNull();
    expect(
      destinationUrlProblem(
        'https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x',
        false,
      ),
    ).toBeNull();
    expect(destinationUrlProblem('http://hooks.slack.com/services/T0/B0/xyz', false)).toBe('not_https');
    expect(destinationUrlProblem('http://127.0.0.1:4000/hook', false)).toBe('not_https');
    expect(destinationUrlProblem('http://127.0.0.1:4000/hook', true)).toBeNull();
    expect(destinationUrlProblem('http://example.com/hook', true)).toBe('not_https');
    expect(destinationUrlProblem('https://u:p@hooks.slack.com/x', false)).toBe('credentials');
    expect(destinationUrlProblem('ftp://hooks.slack.com/x', false)).toBe('not_https');
    expect(destinationUrlProblem('hooks.slack.com/x', false)).toBe('invalid');
    expect(destinationUrlProblem(`https://a.example/${'x'.repeat(2000)}`, false)).toBe('too_long');
  });

  test('the hint shows the host and the last four characters, never the secret path', () => {
    expect(destinationUrlHint('https://hooks.slack.com/services/T000/B000/XXXXsecretAbCd')).toBe(
      'hooks.slack.com/…AbCd',
    );
    expect(destinationUrlHint('https://hooks.slack.com/services/T000/B000/XXXXsecretAbCd')).not.toContain('secret');
  });

  test("Slack's and Teams' answers: 2xx delivered; 4xx but 408 and 429 final; 429, 5xx and no answer retried", () => {
    expect(chatAnswer(200)).toBe('succeeded');
    expect(chatAnswer(202)).toBe('succeeded');
    for (const code of [400, 403, 404, 410]) expect(chatAnswer(code)).toBe('failed');
    for (const code of [408, 429, 500, 502, 503, null]) expect(chatAnswer(code)).toBe('retry');
  });
});
