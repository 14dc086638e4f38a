import {
  HOSTILE_URL,
  sampleAlerts,
  sampleAlertsPage,
  sampleTargetPage,
  sampleTargets,
  sampleTargetsPage,
  SAMPLE_NOW,
} from '../../fixtures/monitoring-pages.ts';
import { alertsPage, alertsQuery } from '../../web/monitoring/alerts-page.ts';
import { targetPage } from '../../web/monitoring/target-page.ts';
import { targetsPage } from '../../web/monitoring/targets-page.ts';

const CSRF = 'sample-csrf-token';

/** Every <form …>…</form> of a page with its attributes and contents. */
const forms = (page: string) =>
  [...page.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)].map((m) => ({ attributes: m[1]!, body: m[2]! }));

/** The element with this id, up to the end of its tag. */
const tagWithId = (page: string, id: string) => new RegExp(`<[a-z]+ [^>]*id="${id}"[^>]*>`).exec(page)?.[0];

function expectEveryPostFormHasCsrf(page: string): void {
  const posting = forms(page).filter(
    (f) => /method="post"/.test(f.attributes) && !f.attributes.includes('action="/logout"'),
  );
  expect(posting.length).toBeGreaterThan(0);
  for (const form of posting) {
    expect(form.body).toContain(`<input type="hidden" name="_csrf" value="${CSRF}">`);
    expect(form.body).toMatch(/<input type="hidden" name="next" value="\/[^"]*">/);
  }
}

describe('the targets page', () => {
  it('lists each target with its URL, region, schedule, state, latest score, sparkline and open alerts', () => {
    const page = targetsPage(sampleTargetsPage('en'));
    const shop = /<li class="target" id="target-11"[\s\S]*?<\/li>/.exec(page)![0];
    const newest = sampleTargets()[0]!.history[0]!;
    expect(shop).toContain('<a class="url" id="target-11-url" href="/targets/11">https://www.example-shop.de/</a>');
    expect(shop).toContain('<button type="submit" class="pause" aria-describedby="target-11-url">Pause</button>');
    expect(shop).toContain('Region eu-central · Daily · <span class="state state-active">Active</span>');
    expect(shop).toContain(`<a href="/reports/${newest.scanId}" class="latest"`);
    expect(shop).toContain(`score-badge large score-warning">${newest.score}</b>`);
    expect(shop).toMatch(
      /<svg class="sparkline"[^>]*role="img" aria-label="Last 30 scans: overall score from \d+ to \d+"/,
    );
    expect(shop).toContain('1 open alert');
    expect(shop).toContain('action="/targets/11/pause"');
    expect(page).toMatch(
      /id="target-12"[\s\S]*?<span class="state state-paused">Paused<\/span>[\s\S]*?action="\/targets\/12\/resume"/,
    );
    expect(/<li class="target" id="target-14"[\s\S]*?<\/li>/.exec(page)![0]).toContain('Not scanned yet');
  });

  it("escapes a target's URL wherever it appears", () => {
    const page = targetsPage(sampleTargetsPage('en'));
    expect(page).not.toContain('<script>');
    expect(page).not.toContain(HOSTILE_URL);
    const escaped = HOSTILE_URL.replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;');
    expect(page).toContain(`<a class="url" id="target-12-url" href="/targets/12">${escaped}</a>`);
    expect(page).toContain(`Remove ${escaped}?`);
  });

  it('puts the CSRF token and the way back in every form that posts, and confirms a removal in a second step', () => {
    const page = targetsPage(sampleTargetsPage('en'));
    expectEveryPostFormHasCsrf(page);
    const remove = forms(page).find((f) => f.attributes.includes('action="/targets/11/delete"'))!;
    expect(remove.body).toContain('<button type="submit" class="danger">Yes, remove this target</button>');
    expect(page).toMatch(
      /<details class="remove"><summary aria-describedby="target-11-url">Remove<\/summary>\s*<form method="post" action="\/targets\/11\/delete">/,
    );
  });

  it('shows the add form with defaults, and after a rejected add the values typed with each error next to its field', () => {
    const fresh = targetsPage(sampleTargetsPage('en'));
    expect(tagWithId(fresh, 'new-warning')).toContain('value="70"');
    expect(tagWithId(fresh, 'new-critical')).toContain('value="50"');
    expect(fresh).toContain('<option value="eu-central" selected>eu-central</option>');
    expect(fresh).not.toContain('aria-invalid="true"');

    const page = targetsPage(
      sampleTargetsPage('en', {
        add: {
          values: { url: 'not a <url>', region: 'us-east', warning: '40', critical: '60' },
          errors: {
            url: 'The url must start with http:// or https://.',
            critical: 'Too high.',
            form: 'Something else.',
          },
        },
      }),
    );
    expect(tagWithId(page, 'target-url')).toContain('value="not a &lt;url&gt;"');
    expect(tagWithId(page, 'target-url')).toContain('aria-invalid="true" aria-describedby="target-url-error"');
    expect(page).toMatch(
      /<input id="target-url"[^>]*>\s*<p class="error field-error" id="target-url-error">The url must start with http:\/\/ or https:\/\/.<\/p>/,
    );
    expect(page).toMatch(
      /<input id="new-critical"[^>]*>\s*<p class="error field-error" id="new-critical-error">Too high.<\/p>/,
    );
    expect(tagWithId(page, 'new-warning')).not.toContain('aria-invalid');
    expect(page).toContain('<option value="us-east" selected>us-east</option>');
    expect(page).toContain('<p class="error form-error" role="alert">Something else.</p>');
  });

  it('opens a rejected threshold edit on its target, with the values typed and the error next to the field', () => {
    const page = targetsPage(
      sampleTargetsPage('en', {
        edit: { targetId: 13, values: { warning: '120', critical: '50' }, errors: { warning: 'Between 0 and 100.' } },
      }),
    );
    expect(page).toMatch(/id="target-13"[\s\S]*?<details class="edit-thresholds" open>/);
    expect(page.match(/<details class="edit-thresholds" open>/g)).toHaveLength(1);
    expect(tagWithId(page, 't13-warning')).toContain('value="120"');
    expect(page).toMatch(
      /<input id="t13-warning"[^>]*aria-invalid="true" aria-describedby="t13-warning-error">\s*<p class="error field-error" id="t13-warning-error">Between 0 and 100.<\/p>/,
    );
    expect(tagWithId(page, 't11-warning')).toContain('value="70"');
  });

  it('gives way to a message at the plan limit, and says when there are no targets', () => {
    const full = targetsPage(sampleTargetsPage('en', { limit: { max: 4, planLabel: 'Starter' } }));
    expect(full).not.toContain('id="add-target-form"');
    expect(full).toContain('Your plan (Starter) keeps up to 4 targets; you have 4.');
    expect(full).toContain('id="limit-reached"');
    const free = targetsPage(sampleTargetsPage('en', { targets: [], limit: { max: 0, planLabel: 'Free' } }));
    expect(free).toContain(
      '<p class="error" id="limit-reached">Your plan (Free) does not include monitored targets; upgrade to add one. <a href="/settings/plan" class="plan-link">See your plan and ask for an upgrade</a></p>',
    );
    expect(free).not.toContain('id="add-target-form"');
    const none = targetsPage(sampleTargetsPage('en', { targets: [], limit: null }));
    expect(none).toContain('<p id="no-targets">No targets yet. Add the first one below.</p>');
    expect(none).toContain('id="add-target-form"');
    expect(none).not.toContain('id="target-limit"');
  });

  it('speaks German', () => {
    const page = targetsPage(sampleTargetsPage('de', { notice: 'paused' }));
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('<title>Überwachte Ziele · WebPerf</title>');
    expect(page).toContain('Region eu-central · Täglich · <span class="state state-active">Aktiv</span>');
    expect(page).toContain('1 offener Alarm');
    expect(page).toContain('2 offene Alarme');
    expect(page).toContain('Ziel pausiert');
    expect(page).toContain('>Schwellen ändern</summary>');
    expect(page).toMatch(/aria-label="Letzte \d+ Scans: Gesamtwert/);
    expect(page).toContain('Noch nicht gescannt');
    expect(targetsPage(sampleTargetsPage('en'))).toContain('<html lang="en">');
  });
});

describe('the target page', () => {
  it('shows the history chart with thresholds and spread, and the last scans newest first, each linking to its report', () => {
    const model = sampleTargetPage('en');
    const page = targetPage(model);
    expect(page).toContain('<h1 class="url">https://www.example-shop.de/</h1>');
    expect(page).toMatch(/<figure class="chart" id="history-chart">/);
    expect(page).toContain('class="threshold threshold-warning" data-value="70"');
    expect(page.match(/<a class="point" href="\/reports\//g)).toHaveLength(30);
    expect(page.match(/<line class="spread"/g)!.length).toBeGreaterThan(20);
    const rows = [
      ...page.matchAll(
        /<tr data-scan-id="([^"]+)"><td class="wide"><a href="\/reports\/([^"]+)">([^<]+)<\/a><\/td>\s*<td>[\s\S]*?<\/td>\s*<td class="spread">([^<]*)<\/td>\s*<td class="trigger"[^>]*>[\s\S]*?<\/td>\s*<td>(?:<a class="compare" href="([^"]+)")?/g,
      ),
    ];
    const newestFirst = [...model.scans].sort((a, b) => b.at.getTime() - a.at.getTime());
    expect(rows.map((r) => r[1])).toEqual(newestFirst.map((s) => s.scanId));
    expect(rows.every((r) => r[1] === r[2])).toBe(true);
    expect(rows[0]![3]).toBe('19 Nov 2026, 10:12 UTC');
    const runs = newestFirst[0]!.runs!;
    expect(rows[0]![4]).toBe(`3 runs: ${Math.min(...runs)}–${Math.max(...runs)}`);
    // Each scan compares with the one before it; the oldest has none.
    expect(rows.map((r) => r[5]?.replaceAll('&amp;', '&'))).toEqual(
      newestFirst.map((s, i) =>
        newestFirst[i + 1] ? `/compare?scan=${newestFirst[i + 1]!.scanId}&scan=${s.scanId}` : undefined,
      ),
    );
  });

  it('has Run now, says when the schedule scans next, and labels each scan of its history with what started it', () => {
    const model = sampleTargetPage('en');
    const page = targetPage(model);
    const run = forms(page).find((f) => f.attributes.includes('action="/targets/11/run"'))!;
    expect(run.attributes).toContain('method="post"');
    expect(run.body).toContain(
      '<button type="submit" class="primary" id="run-now" aria-describedby="run-now-hint">Run now</button>',
    );
    expect(page).toContain('id="run-now-hint">Scans it now, as the schedule would;');
    const next = model.target.nextScanAt!;
    expect(next.getTime()).toBeGreaterThan(SAMPLE_NOW.getTime());
    expect(page).toContain(`<dd id="next-scan"><time datetime="${next.toISOString()}">`);
    expect(page).toMatch(
      /<tr data-scan-id="scan11x00">[\s\S]*?<span class="trigger-label trigger-run_now">Run now<\/span>/,
    );
    expect(page).toMatch(
      /<tr data-scan-id="scan11x01">[\s\S]*?<span class="trigger-label trigger-schedule">Schedule<\/span>/,
    );
    const paused = targetPage({ ...model, target: { ...model.target, isActive: false, nextScanAt: null } });
    expect(paused).toContain('<dd id="next-scan">none while paused</dd>');
    const refused = targetPage(sampleTargetPage('de', { runError: 'Sie haben Ihre 30 Scans verbraucht.' }));
    expect(refused).toContain('<p class="error form-error" role="alert">Sie haben Ihre 30 Scans verbraucht.</p>');
    expect(refused).toContain('>Jetzt scannen</button>');
    expect(refused).toContain('Nächster geplanter Scan');
  });

  it("lists the target's open and recent alerts with their buttons, every form with its CSRF token", () => {
    const page = targetPage(sampleTargetPage('en'));
    expect(/<ul class="cards" id="open-alerts-list">[\s\S]*?<\/ul>/.exec(page)![0]).toContain('id="alert-29"');
    const recent = /<ul class="cards" id="recent-alerts-list">[\s\S]*?<\/ul>/.exec(page)![0];
    expect(recent).toContain('id="alert-25"');
    expect(recent).toContain('Resolved 11 Nov 2026, 22:00 UTC');
    expect(recent).not.toContain('action="/alerts/25/dismiss"');
    expectEveryPostFormHasCsrf(page);
    expect(page).toContain('<input type="hidden" name="next" value="/targets/11">');
  });

  it('edits the thresholds on the page; a rejected edit comes back open with the error next to its field', () => {
    const fresh = targetPage(sampleTargetPage('en'));
    expect(fresh).toContain('<details class="edit-thresholds"><summary>Edit thresholds</summary>');
    expect(forms(fresh).find((f) => f.attributes.includes('action="/targets/11/thresholds"'))!.body).toContain(
      '<input type="hidden" name="next" value="/targets/11">',
    );
    expect(tagWithId(fresh, 'edit-warning')).toContain('value="70"');
    const rejected = targetPage(
      sampleTargetPage('en', {
        edit: { values: { warning: '60', critical: '65' }, errors: { critical: 'Above the warning threshold.' } },
      }),
    );
    expect(rejected).toContain('<details class="edit-thresholds" open>');
    expect(tagWithId(rejected, 'edit-critical')).toContain('value="65"');
    expect(rejected).toMatch(
      /<input id="edit-critical"[^>]*aria-invalid="true"[^>]*>\s*<p class="error field-error" id="edit-critical-error">Above the warning threshold.<\/p>/,
    );
  });

  it('handles a target without scans or alerts', () => {
    const [, , , unscanned] = sampleTargets();
    const page = targetPage({
      ...sampleTargetPage('en'),
      target: unscanned!,
      scans: [],
      openAlerts: [],
      recentAlerts: [],
    });
    expect(page).toContain('<p id="no-scans">No finished scans yet.</p>');
    expect(page).toContain('<p class="chart-none">No finished scans yet.</p>');
    expect(page).toContain('<p id="open-alerts-list">None.</p>');
    expect(page).toContain('Last scan started</dt><dd>never</dd>');
  });

  it('speaks German', () => {
    const page = targetPage(sampleTargetPage('de'));
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('Werteverlauf');
    expect(page).toContain('19. Nov. 2026, 10:12 UTC');
    expect(page).toMatch(/3 Läufe: \d+–\d+/);
    expect(page).toContain('Offene Alarme');
    expect(page).toContain('Gesamtwert auf 66 gefallen');
  });
});

describe('the alerts page', () => {
  it('shows each alert with severity, title, message, time, state, link to its scan, and only the buttons that apply', () => {
    const page = alertsPage(sampleAlertsPage('en'));
    const item = (id: number) => new RegExp(`<li class="alert[^"]*" id="alert-${id}"[\\s\\S]*?</li>`).exec(page)![0];
    expect(item(31)).toContain(
      '<span class="badge badge-critical">Critical</span><span class="badge badge-new">New</span>',
    );
    expect(item(31)).toContain('<h3 class="alert-title">Overall score fell to 44</h3>');
    expect(item(31)).toContain('The overall score is 44, below your threshold of 50.');
    expect(item(31)).toContain('<time datetime="2026-11-19T04:00:00.000Z">Raised 19 Nov 2026, 04:00 UTC</time>');
    expect(item(31)).toContain('<a href="/reports/scan13x00">View the scan</a>');
    expect(item(31)).toContain('action="/alerts/31/read"');
    expect(item(31)).toContain('action="/alerts/31/dismiss"');
    expect(item(25)).not.toContain('/read"');
    expect(item(25)).not.toContain('/dismiss"');
    expect(item(21)).toContain('Dismissed');
    expect(item(21)).not.toContain('/dismiss"');
    expect(item(18)).not.toContain('View the target');
    expect(page).not.toContain('<script>');
    expectEveryPostFormHasCsrf(page);
    expect(page).toContain('<input type="hidden" name="next" value="/alerts?page=2">');
  });

  it("links a flow's budget alert to the flow run it is about, not to a scan report", () => {
    const [first] = sampleAlerts('en');
    const flowAlert = {
      ...first!,
      id: 99,
      targetId: null,
      flowPublicId: 'flow1x',
      scanPublicId: 'run1x',
      isDismissed: true,
    };
    const page = alertsPage(sampleAlertsPage('en', { alerts: [flowAlert] }));
    expect(page).toContain('<a href="/flows/flow1x/runs/run1x">View the flow run</a>');
    expect(page).not.toContain('/reports/run1x');
    expect(page).toContain('action="/alerts/99/undismiss"');
  });

  it('filters through a GET form that keeps the chosen values, and pages with links that keep the filters', () => {
    const page = alertsPage(
      sampleAlertsPage('en', {
        filters: { status: 'open', severity: 'critical' },
        meta: { current_page: 2, per_page: 10, total: 25, last_page: 3 },
      }),
    );
    expect(page).toContain('<form method="get" action="/alerts" class="filters" id="alert-filters">');
    expect(page).toContain('<option value="open" selected>Open</option>');
    expect(page).toContain('<option value="critical" selected>Critical</option>');
    expect(page).toContain('<input type="hidden" name="limit" value="10">');
    expect(page).toContain('<a rel="prev" href="/alerts?status=open&amp;severity=critical&amp;limit=10">Previous</a>');
    expect(page).toContain('<span aria-current="page">Page 2 of 3</span>');
    expect(page).toContain(
      '<a rel="next" href="/alerts?status=open&amp;severity=critical&amp;limit=10&amp;page=3">Next</a>',
    );
    expect(alertsQuery({ status: null, severity: null }, 1)).toBe('');

    const last = alertsPage(
      sampleAlertsPage('en', { meta: { current_page: 3, per_page: 20, total: 46, last_page: 3 } }),
    );
    expect(last).toContain('<span class="disabled">Next</span>');
    const single = alertsPage(
      sampleAlertsPage('en', { meta: { current_page: 1, per_page: 20, total: 6, last_page: 1 } }),
    );
    expect(single).not.toContain('class="pagination"');
  });

  it('offers "mark all as read" only while something is unread, and says when nothing matches', () => {
    expect(alertsPage(sampleAlertsPage('en'))).toMatch(
      /<form class="inline" method="post" action="\/alerts\/read-all">[\s\S]*?Mark all as read<\/button>/,
    );
    const empty = alertsPage(
      sampleAlertsPage('en', {
        alerts: [],
        unreadCount: 0,
        filters: { status: 'unread', severity: null },
        meta: { current_page: 1, per_page: 20, total: 0, last_page: 1 },
      }),
    );
    expect(empty).not.toContain('read-all');
    expect(empty).toContain('<p id="no-alerts">No alerts match these filters.</p>');
    expect(
      alertsPage(
        sampleAlertsPage('en', { alerts: [], meta: { current_page: 1, per_page: 20, total: 0, last_page: 1 } }),
      ),
    ).toContain('<p id="no-alerts">No alerts.</p>');
  });

  it('shows an invalid filter next to its field', () => {
    const page = alertsPage(sampleAlertsPage('en', { errors: { severity: 'The selected severity is invalid.' } }));
    expect(page).toMatch(
      /<select id="filter-severity" name="severity" aria-invalid="true" aria-describedby="filter-severity-error">[\s\S]*?<\/select><p class="error field-error" id="filter-severity-error">The selected severity is invalid.<\/p>/,
    );
  });

  it('speaks German', () => {
    const page = alertsPage(sampleAlertsPage('de'));
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('<h2 id="alerts-heading">46 Alarme</h2>');
    expect(page).toContain(
      '<span class="badge badge-critical">Kritisch</span><span class="badge badge-new">Neu</span>',
    );
    expect(page).toContain('Ausgelöst am 19. Nov. 2026, 04:00 UTC');
    expect(page).toContain('Alle als gelesen markieren');
    expect(page).toContain('Seite 2 von 3');
    expect(sampleAlerts('de')[0]!.title).toBe('Gesamtwert auf 44 gefallen');
  });
});
