import { formatTimeAgo } from '../../core/i18n/dates.ts';
import type { Scan } from '../../core/scan/scan.ts';
import { html } from '../../web/html.ts';
import { reportPage } from '../../web/scans/report-page.ts';
import { rescanPart } from '../../web/scans/report-rescan.ts';
import { sharePart, type SharePart } from '../../web/scans/report-share.ts';
import { scanRows } from '../../web/scans/scan-table.ts';

/** The owner's parts of a report (scan again with the cached notice, share) and the scheduled/on-demand label. */
const CSRF = 'sample-csrf';

const scan = (fields: Partial<Scan> = {}): Scan => ({
  publicId: '01kabcdefghjkmnpqrstvwxyz0',
  userId: 1,
  url: 'https://shop.example/?q=a&b="c"',
  host: 'shop.example',
  region: 'eu-central',
  isPublic: false,
  status: 'finished',
  runs: 3,
  authType: null,
  authSecret: null,
  secretCheck: null,
  shareToken: null,
  shareEnabled: false,
  requestedAt: new Date('2026-11-26T10:00:00Z'),
  startedAt: new Date('2026-11-26T10:00:01Z'),
  finishedAt: new Date('2026-11-26T10:00:30Z'),
  failureCode: null,
  failureHttpStatus: null,
  result: null,
  targetId: null,
  trigger: 'request',
  progress: null,
  ...fields,
});

/** Every hidden field of the part's form, by name. */
const hiddenFields = (part: string) =>
  Object.fromEntries(
    [...part.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  );

describe('scan again', () => {
  it('posts a forced scan of the same address, region, visibility and runs (up to the plan) to POST /scans', () => {
    const part = rescanPart({ scan: scan({ isPublic: true }), locale: 'en', csrf: CSRF, maxRuns: 5 }).value;
    expect(part).toContain('<form method="post" action="/scans" id="rescan-form"');
    expect(hiddenFields(part)).toEqual({
      _csrf: CSRF,
      url: 'https://shop.example/?q=a&amp;b=&quot;c&quot;',
      region: 'eu-central',
      public: '1',
      force: '1',
      runs: '3',
      // The new scan's report is compared with this one.
      rescan_of: '01kabcdefghjkmnpqrstvwxyz0',
    });
    expect(part).toContain('>Scan again</button>');
    expect(part).not.toContain('cached-notice');
    const fewer = rescanPart({ scan: scan(), locale: 'en', csrf: CSRF, maxRuns: 1 }).value;
    expect(hiddenFields(fewer)).toMatchObject({ runs: '1' });
    expect(hiddenFields(fewer)).not.toHaveProperty('public');
  });

  it("of a monitored target's scan runs the target now, so the new scan joins its history", () => {
    const part = rescanPart({
      scan: scan({ targetId: 42, trigger: 'schedule' }),
      locale: 'de',
      csrf: CSRF,
      maxRuns: 3,
    }).value;
    expect(part).toContain('action="/targets/42/run"');
    expect(hiddenFields(part)).toEqual({
      _csrf: CSRF,
      next: '/reports/01kabcdefghjkmnpqrstvwxyz0',
      rescan_of: '01kabcdefghjkmnpqrstvwxyz0',
    });
    expect(part).toContain('>Erneut scannen</button>');
    expect(part).toContain('Der neue Scan kommt in den Verlauf des Ziels.');
  });

  it('says why an authenticated scan has no button: its credentials are gone', () => {
    const part = rescanPart({ scan: scan({ authType: 'basic' }), locale: 'en', csrf: CSRF, maxRuns: 3 }).value;
    expect(part).not.toContain('<form');
    expect(part).toContain('id="rescan-auth">This scan signed in to the page with credentials');
  });

  it("opened as POST /scans's reused answer, says so with the result's age and offers to scan now", () => {
    const part = rescanPart({
      scan: scan(),
      locale: 'en',
      csrf: CSRF,
      maxRuns: 3,
      cachedAgeMs: 20 * 60_000 + 5_000,
    }).value;
    expect(part).toContain(
      '<p class="notice cached" role="status" id="cached-notice">This is the result of a scan 20 minutes ago.',
    );
    expect(part).toContain('>Scan now</button>');
    expect(hiddenFields(part)).toMatchObject({ force: '1' });
    const de = rescanPart({ scan: scan(), locale: 'de', csrf: CSRF, maxRuns: 3, cachedAgeMs: 3 * 3600_000 }).value;
    expect(de).toContain('Dieses Ergebnis stammt von einem Scan vor 3 Stunden.');
    expect(de).toContain('>Jetzt neu scannen</button>');
  });

  it('ages read in whole minutes, hours, then days', () => {
    expect(formatTimeAgo(10_000, 'en')).toBe('1 minute ago');
    expect(formatTimeAgo(59 * 60_000, 'en')).toBe('59 minutes ago');
    expect(formatTimeAgo(90 * 60_000, 'en')).toBe('1 hour ago');
    expect(formatTimeAgo(23 * 3600_000, 'de')).toBe('vor 23 Stunden');
    expect(formatTimeAgo(72 * 3600_000, 'en')).toBe('3 days ago');
  });
});

describe('share', () => {
  const part = (fields: Partial<SharePart>) =>
    sharePart({
      scan: scan(),
      locale: 'en',
      csrf: CSRF,
      shareUrl: null,
      plan: { allowed: true, label: 'Starter', needed: 'Starter' },
      ...fields,
    }).value;

  it('while off: says the report is private and sharing is off, with the button that creates the link', () => {
    const off = part({});
    expect(off).toContain('id="report-visibility" data-public="no">This report is private');
    expect(off).toContain('id="share-state" data-share="off">Sharing is off');
    expect(off).toContain('action="/reports/01kabcdefghjkmnpqrstvwxyz0/share/enable"');
    expect(off).toContain('id="share-on">Create a share link</button>');
    expect(off).not.toContain('share-url');
    // Turned off before: the same link comes back.
    const again = part({ scan: scan({ shareToken: 'x'.repeat(32), isPublic: true }) });
    expect(again).toContain('data-public="yes">This report is public');
    expect(again).toContain('Turning it on again brings back the same link.');
    expect(again).toContain('id="share-on">Turn sharing on again</button>');
  });

  it('while on: the link in a read-only box with its copy button, and the button that turns it off', () => {
    const url = 'http://app.test/share/' + 'x'.repeat(32);
    const on = part({
      scan: scan({ shareEnabled: true, shareToken: 'x'.repeat(32) }),
      shareUrl: url,
      notice: 'shared',
    });
    expect(on).toContain('id="share-state" data-share="on">Sharing is on');
    expect(on).toContain(`<input id="share-url" type="text" readonly value="${url}"`);
    expect(on).toContain('<label for="share-url">Share link</label>');
    expect(on).toContain(
      '<button type="button" class="copy" data-copy="share-url" data-done="Copied" hidden>Copy link</button>',
    );
    expect(on).toContain('action="/reports/01kabcdefghjkmnpqrstvwxyz0/share/disable"');
    expect(on).toContain('id="share-off">Turn sharing off</button>');
    expect(on).toContain('role="status" id="share-notice">Sharing is on.');
    for (const form of on.match(/<form[\s\S]*?<\/form>/g)!) expect(form).toContain(`name="_csrf" value="${CSRF}"`);
  });

  it('on a plan without share links: the reason, and no button', () => {
    const free = part({ plan: { allowed: false, label: 'Free', needed: 'Starter' } });
    expect(free).toContain('id="share-plan">Share links come with the Starter plan and higher; your plan is Free.');
    expect(free).not.toContain('<button');
    expect(free).not.toContain('<form');
    expect(free).toContain('This report is private');
  });
});

describe('the report page', () => {
  it("puts the owner's parts under its heading, and a share page (none given) has none", () => {
    const failed = scan({ status: 'failed', failureCode: 'timeout', finishedAt: new Date('2026-11-26T10:01:00Z') });
    const parts = html`<div id="owner-parts"></div>`;
    const page = reportPage({ scan: failed, chrome: { locale: 'en' }, imageUrl: (n) => n, ownerParts: parts });
    expect(page.indexOf('id="owner-parts"')).toBeGreaterThan(page.indexOf('<h1>'));
    expect(page.indexOf('id="owner-parts"')).toBeLessThan(page.indexOf('id="failed"'));
    expect(reportPage({ scan: failed, chrome: { locale: 'en' }, imageUrl: (n) => n })).not.toContain('owner-parts');
  });
});

describe('the scans table', () => {
  it('labels scheduled scans apart from on-demand ones (run now included)', () => {
    const rows = scanRows(
      [
        scan({ publicId: 'a'.repeat(26), trigger: 'schedule', targetId: 1 }),
        scan({ publicId: 'b'.repeat(26), trigger: 'run_now', targetId: 1 }),
        scan({ publicId: 'c'.repeat(26) }),
      ],
      'en',
      false,
    ).value;
    const label = (id: string) =>
      new RegExp(`<tr data-scan-id="${id}">[\\s\\S]*?<span class="trigger-label ([^"]+)"[^>]*>([^<]+)</span>`).exec(
        rows,
      )!;
    expect(label('a'.repeat(26)).slice(1)).toEqual(['trigger-schedule', 'Scheduled']);
    expect(label('b'.repeat(26)).slice(1)).toEqual(['trigger-on-demand', 'On demand']);
    expect(label('c'.repeat(26)).slice(1)).toEqual(['trigger-on-demand', 'On demand']);
    expect(scanRows([scan({ trigger: 'schedule' })], 'de', false).value).toContain('>Geplant</span>');
  });
});
