import {
  chromeFor,
  CSRF,
  failedRun,
  finishedRun,
  HOSTILE_NAME,
  SECRET_VALUE,
  sampleFlows,
  sampleSecrets,
  sampleSeries,
  SIGN_IN_FLOW,
} from '../../fixtures/flow-pages.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { escapeHtml } from '../../web/html.ts';
import { flowComparePage } from '../../web/flows/compare-page.ts';
import { flowEditorPage, type FlowEditorPageModel } from '../../web/flows/editor-page.ts';
import { parseFlowForm, parseSecretForm, valuesFromDefinition } from '../../web/flows/form.ts';
import { flowListPage } from '../../web/flows/list-page.ts';
import type { FlowRun } from '../../web/flows/model.ts';
import { flowRunPage, stepOutcomes } from '../../web/flows/run-page.ts';

const allowance = { planLabel: 'Pro', maxFlows: 10, maxFlowSteps: 50 };
const imageUrl = (asset: string) => `/assets/signed/${asset}?sig=abc`;

/** Every <form …>…</form> of a page with its attributes and contents. */
const forms = (page: string) =>
  [...page.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)].map((m) => ({ attributes: m[1]!, body: m[2]! }));

function expectEveryPostFormHasCsrf(page: string): void {
  const posting = forms(page).filter((f) => /method="post"/.test(f.attributes) && !f.attributes.includes('/logout'));
  expect(posting.length).toBeGreaterThan(0);
  for (const form of posting) expect(form.body).toContain(`<input type="hidden" name="_csrf" value="${CSRF}">`);
}

/** The element with this id, up to its end tag (no nesting of the same tag inside). */
const element = (page: string, id: string) => {
  const match = new RegExp(`<([a-z0-9]+)[^>]* id="${id}"[\\s\\S]*?</\\1>`).exec(page);
  if (!match) throw new Error(`no element #${id}`);
  return match[0];
};

/** A run's or a comparison's step: from its <li> to the next step's (they hold lists of their own). */
const step = (page: string, id: string) => {
  const start = page.indexOf(` id="${id}"`);
  if (start < 0) throw new Error(`no step #${id}`);
  const next = page.indexOf('<li class="flow-step', start);
  return page.slice(start, next < 0 ? page.indexOf('</ol>', page.lastIndexOf('class="flow-step')) : next);
};

const editor = (locale: Locale, overrides: Partial<FlowEditorPageModel> = {}) =>
  flowEditorPage({
    chrome: chromeFor(locale),
    csrf: CSRF,
    flowId: 'flow-1',
    values: valuesFromDefinition(SIGN_IN_FLOW),
    maxFlowSteps: 50,
    secrets: sampleSecrets(),
    runs: [
      { id: 'run-3', status: 'finished', requestedAt: '2026-11-22T08:00:00Z', finishedAt: '2026-11-22T08:01:00Z' },
      { id: 'run-2', status: 'failed', requestedAt: '2026-11-21T08:00:00Z', finishedAt: '2026-11-21T08:00:30Z' },
      { id: 'run-1', status: 'finished', requestedAt: '2026-11-20T08:00:00Z', finishedAt: '2026-11-20T08:01:00Z' },
    ],
    ...overrides,
  });

describe('the flows list', () => {
  it('lists each flow with its name, start URL, steps and last run, and offers a new flow and the import', () => {
    const page = flowListPage({ chrome: chromeFor('en'), csrf: CSRF, flows: sampleFlows(), allowance });
    const row = element(page, 'flows');
    expect(row).toContain('<a href="/flows/flow-1">Sign in and search</a>');
    expect(row).toContain('https://shop.example/login');
    expect(row).toContain('9 steps, 4 measured');
    expect(row).toMatch(
      /<a href="\/flows\/flow-1\/runs\/run-failed"><span class="run-status status-failed"[^>]*>Failed<\/span> <time datetime="2026-11-22T08:00:40Z">22 Nov 2026, 08:00 UTC<\/time><\/a>/,
    );
    expect(row).toContain('Not run yet');
    expect(page).toContain('<a class="button" href="/flows/new" id="new-flow">New flow</a>');
    expect(page).toContain('href="/flows/new#import" id="import-flow">Import a Recorder export</a>');
    expect(page).toContain('Your plan (Pro) keeps up to 10 flows; you have 2.');
  });

  it('speaks German', () => {
    const page = flowListPage({ chrome: chromeFor('de'), csrf: CSRF, flows: sampleFlows(), allowance });
    expect(page).toContain('<h1>Nutzerabläufe</h1>');
    expect(page).toContain('9 Schritte, 4 gemessen');
    expect(page).toContain('>Fehlgeschlagen</span>');
    expect(page).toContain('>Neuer Ablauf</a>');
    expect(page).toContain('>Recorder-Export importieren</a>');
    expect(page).toContain('Noch nicht gelaufen');
  });

  it('says which plan has flows, with the link to the plan page, when this plan has none', () => {
    for (const [locale, words] of [
      ['en', 'User flows are not part of your plan (Free). They are available from the Pro plan.'],
      ['de', 'Nutzerabläufe sind nicht Teil Ihres Tarifs (Free). Es gibt sie ab dem Tarif Pro.'],
    ] as const) {
      const page = flowListPage({
        chrome: chromeFor(locale),
        csrf: CSRF,
        flows: [],
        allowance: { planLabel: 'Free', maxFlows: 0, maxFlowSteps: 0, upgradeLabel: 'Pro' },
      });
      expect(element(page, 'plan-required')).toContain(words);
      expect(element(page, 'plan-required')).toContain('href="/settings/plan"');
      expect(page).not.toContain('id="new-flow"');
    }
  });

  it('offers no new flow once the plan is full, saying why with the plan link', () => {
    const page = flowListPage({
      chrome: chromeFor('en'),
      csrf: CSRF,
      flows: sampleFlows(),
      allowance: { ...allowance, maxFlows: 2 },
    });
    expect(element(page, 'flow-allowance')).toContain('Remove a flow or upgrade your plan to add another.');
    expect(element(page, 'flow-allowance')).toContain('href="/settings/plan"');
    expect(page).not.toContain('id="new-flow"');
  });

  it("escapes a flow's name", () => {
    const page = flowListPage({ chrome: chromeFor('en'), csrf: CSRF, flows: sampleFlows(), allowance });
    expect(page).not.toContain('<script>');
    expect(page).toContain(escapeHtml(HOSTILE_NAME));
  });
});

describe('the flow editor', () => {
  it('shows each step as a row with its type chosen and the fields of that type, named like the API pointers', () => {
    const page = editor('en');
    const first = element(page, 'step-0');
    expect(first).toContain('<legend>Step 1 <span class="mode mode-navigation"');
    expect(first).toMatch(
      /<select id="steps-0-type" name="steps\/0\/type">[\s\S]*<option value="navigate" selected>Open a URL \(page load\)<\/option>/,
    );
    expect(first).toMatch(
      /<input id="steps-0-url" name="steps\/0\/url" type="text"[^>]* value="https:\/\/shop.example\/login"/,
    );
    expect(first).toContain('name="steps/0/name"');
    expect(first).not.toContain('name="steps/0/selector"');
    expect(first).toContain(
      '<button type="submit" name="_action" value="remove/0" class="secondary remove-step" aria-label="Remove step 1">Remove</button>',
    );
    const secretStep = element(page, 'step-3');
    expect(secretStep).toMatch(/name="steps\/3\/secret"[^>]* value="shop_password"/);
    expect(element(page, 'step-6')).toContain('Nothing to fill in.');
    expect(page).toContain('<button type="submit" name="_action" value="add" id="add-step">Add step</button>');
    expect(page).toContain('Your plan allows up to 50 steps per flow.');
    expect(page).toMatch(/<option value="desktop" selected>Desktop<\/option>/);
    // Enter in a field saves: a Save button comes before every Remove.
    const form = element(page, 'flow-form');
    expect(form.indexOf('value="save"')).toBeLessThan(form.indexOf('value="remove/0"'));
    expectEveryPostFormHasCsrf(page);
  });

  it('puts the errors of the form parser beside the step and field they belong to, in both languages', () => {
    const body = new URLSearchParams([
      ['name', ''],
      ['form_factor', 'desktop'],
      ['steps/0/type', 'navigate'],
      ['steps/0/url', 'https://shop.example/'],
      ['steps/1/type', 'click'],
      ['steps/1/selector', ''],
    ]);
    const { values, errors } = parseFlowForm(body);
    for (const [locale, required] of [
      ['en', 'Fill this in.'],
      ['de', 'Bitte ausfüllen.'],
    ] as const) {
      const page = editor(locale, { values, errors });
      const step = element(page, 'step-1');
      expect(step).toMatch(
        /<input id="steps-1-selector" name="steps\/1\/selector"[^>]* aria-invalid="true" aria-describedby="steps-1-selector-hint steps-1-selector-error">/,
      );
      expect(step).toContain(
        `<p class="error field-error" id="steps-1-selector-error" data-field="steps/1/selector">${required}</p>`,
      );
      expect(page).toMatch(/<input id="name" name="name"[^>]* aria-invalid="true" aria-describedby="name-error">/);
      expect(element(page, 'step-0')).not.toContain('aria-invalid');
      expect(element(page, 'form-errors')).toContain(
        locale === 'en' ? '2 fields need attention.' : '2 Felder brauchen',
      );
    }
  });

  it("words a service's own error and a limit", () => {
    const page = editor('de', {
      errors: {
        'steps/3/secret': { code: 'secret_unknown' },
        'steps/2/text': { code: 'too_long', limit: 1000 },
        form: { message: 'Ihr Tarif erlaubt 10 Schritte.' },
      },
    });
    expect(element(page, 'steps-3-secret-error')).toContain('Kein Geheimnis mit diesem Namen');
    expect(element(page, 'steps-2-text-error')).toContain('Höchstens 1000 Zeichen.');
    expect(page).toContain('<p class="error form-error" role="alert">Ihr Tarif erlaubt 10 Schritte.</p>');
  });

  it('lists the secrets by name and kind with replace and delete, and never a value', () => {
    // A rejected secret post: the page comes back with the name and kind typed, never the value.
    const rejected = parseSecretForm(
      new URLSearchParams([
        ['secret_name', 'shop_totp2'],
        ['secret_kind', 'totp'],
        ['secret_value', SECRET_VALUE],
      ]),
    );
    expect(rejected.errors).toEqual({ secret_value: { code: 'totp_seed' } });
    for (const locale of ['en', 'de'] as const) {
      const page = editor(locale, { secretForm: { values: rejected.values, errors: rejected.errors } });
      expect(page).not.toContain(SECRET_VALUE);
      const list = element(page, 'secret-list');
      expect(list).toContain('<code>shop_password</code>');
      expect(list).toContain(locale === 'en' ? 'TOTP seed (two-factor code)' : 'TOTP-Schlüssel (Zwei-Faktor-Code)');
      expect(list).toContain('action="/flows/flow-1/secrets/shop_password/delete"');
      // Password inputs never carry a value attribute.
      for (const input of page.match(/<input[^>]*type="password"[^>]*>/g)!) expect(input).not.toContain('value=');
      const add = element(page, 'add-secret');
      expect(add).toMatch(/name="secret_name"[^>]* value="shop_totp2"/);
      expect(add).toContain('<option value="totp" selected>');
      expect(add).toContain(locale === 'en' ? 'A TOTP seed is base32' : 'Ein TOTP-Schlüssel ist Base32');
      expectEveryPostFormHasCsrf(page);
    }
  });

  it('shows the run history with links to each run and compares a finished run with the finished one before', () => {
    const page = editor('en');
    const history = element(page, 'run-history');
    expect(history).toContain('<a href="/flows/flow-1/runs/run-3">');
    expect(history).toContain('<a href="/flows/flow-1/runs/run-2">');
    expect(history).toContain('href="/flows/flow-1/compare?run=run-1&amp;run=run-3"');
    expect(history.match(/class="compare"/g)).toHaveLength(1);
    expect(page).toContain('action="/flows/flow-1/run"');
    expect(editor('de')).toContain('>Jetzt ausführen</button>');
  });

  it('offers daily monitoring as one button that turns it the other way, and says the state', () => {
    const off = element(editor('en', { monitored: false }), 'monitoring');
    expect(off).toContain('<p id="monitoring-state" data-monitored="false">This flow runs only when you start it.');
    expect(off).toContain('action="/flows/flow-1/monitoring"');
    expect(off).toContain('<input type="hidden" name="monitored" value="true">');
    expect(off).toMatch(/id="monitoring-toggle"[^>]*>Monitor daily<\/button>/);
    const on = element(editor('de', { monitored: true }), 'monitoring');
    expect(on).toContain('data-monitored="true">Dieser Ablauf läuft einmal täglich');
    expect(on).toContain('<input type="hidden" name="monitored" value="false">');
    expect(on).toMatch(/id="monitoring-toggle"[^>]*>Überwachung beenden<\/button>/);
    expectEveryPostFormHasCsrf(editor('en', { monitored: true }));
  });

  it('says why monitoring was refused, over the plan with the plan link', () => {
    const limited = editor('en', {
      monitoringError: { message: 'Your plan (Pro) monitors up to 25 targets.', planLink: true },
    });
    expect(element(limited, 'monitoring-error')).toBe(
      '<p class="error form-error" role="alert" id="monitoring-error">Your plan (Pro) monitors up to 25 targets. <a href="/settings/plan" class="plan-link">See your plan and ask for an upgrade</a></p>',
    );
    const away = editor('en', { monitoringError: { message: '<b>away</b>' } });
    expect(away).toContain('id="monitoring-error">&lt;b&gt;away&lt;/b&gt;</p>');
    expect(editor('en')).not.toContain('id="monitoring-error"');
  });

  it('draws the history per step below the runs once a run has finished, points linking to their runs', () => {
    const series = sampleSeries(
      ['run-1', 'run-3'].map((runId, day) => ({ runId, at: new Date(Date.UTC(2026, 10, 20 + day * 2, 8, 1)) })),
    );
    const page = editor('en', { history: { series, days: 30 } });
    const runs = page.indexOf('id="runs"');
    const history = page.indexOf('id="flow-history"');
    expect(runs).toBeGreaterThan(-1);
    expect(history).toBeGreaterThan(runs);
    expect(history).toBeLessThan(page.indexOf('id="editor"'));
    expect(page).toContain('Step 1: Login page');
    expect(page).toContain('data-metric="inp_ms"');
    expect(page).toContain('href="/flows/flow-1/runs/run-3"');
    expect(editor('de', { history: { series, days: 30 } })).toContain('Verlauf je Schritt');
    // No finished run yet: nothing to draw, no section.
    const queued = editor('en', {
      history: { series: [], days: 30 },
      runs: [{ id: 'run-9', status: 'queued', requestedAt: '2026-11-22T08:00:00Z', finishedAt: null }],
    });
    expect(queued).not.toContain('id="flow-history"');
    // Finished runs, none in the window: the section says so in one line.
    expect(element(editor('en', { history: { series: [], days: 30 } }), 'flow-history')).toContain(
      'No finished runs in the last 30 days.',
    );
  });

  it('offers the import on a new flow and shows what an import left out, escaped', () => {
    const page = flowEditorPage({
      chrome: chromeFor('en'),
      csrf: CSRF,
      values: valuesFromDefinition(SIGN_IN_FLOW),
      maxFlowSteps: -1,
      importWarnings: ['Step 4 (<doubleClick>) is not supported and was left out.'],
    });
    expect(page).toContain('action="/flows" id="flow-form"');
    expect(page).toContain('>Create the flow</button>');
    expect(element(page, 'import-form')).toContain('<textarea id="recording" name="recording"');
    expect(element(page, 'import-form')).toContain('action="/flows/import"');
    expect(element(page, 'import-warnings')).toContain(
      'Step 4 (&lt;doubleClick&gt;) is not supported and was left out.',
    );
    expect(page).not.toContain('id="secrets"');
    expect(page).not.toContain('steps per flow');
    const german = flowEditorPage({
      chrome: chromeFor('de'),
      csrf: CSRF,
      values: valuesFromDefinition(SIGN_IN_FLOW),
      maxFlowSteps: 10,
      importErrors: { recording: { code: 'recording_json' } },
    });
    expect(element(german, 'recording-error')).toContain('Das ist kein Recorder-Export im JSON-Format.');
    expect(german).toContain('Export des Chrome-DevTools-Recorders importieren');
  });

  it("escapes the flow's name and the typed values", () => {
    const values = valuesFromDefinition({
      ...SIGN_IN_FLOW,
      name: HOSTILE_NAME,
      steps: [{ type: 'click', selector: '"><script>x()</script>' }],
    });
    const page = editor('en', { values });
    expect(page).not.toContain('<script>');
    expect(page).toContain(`<h1>${escapeHtml(HOSTILE_NAME)}</h1>`);
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"');
  });
});

describe('a flow run report', () => {
  const render = (run: FlowRun, locale: Locale = 'en') =>
    flowRunPage({ chrome: chromeFor(locale), csrf: CSRF, flowId: 'flow-1', run, imageUrl });

  it('shows the measured steps in order with number, mode, name, URL, rated metrics, scores, screenshot and findings', () => {
    const page = render(finishedRun());
    const ids = [...page.matchAll(/<li class="flow-step step-(\w[\w-]*)" id="step-(\d+)"/g)].map((m) => [m[2], m[1]]);
    expect(ids).toEqual([
      ['0', 'measured'],
      ['1', 'measured'],
      ['7', 'measured'],
      ['8', 'measured'],
    ]);
    const load = step(page, 'step-0');
    expect(load).toContain('<span class="step-number">Step 1</span> <span class="mode mode-navigation"');
    expect(load).toContain('Login page');
    expect(load).toContain('<p class="url">https://shop.example/login</p>');
    expect(load).toMatch(
      /data-metric="lcp_ms"[\s\S]*?good ≤ 2.5 s, poor &gt; 4 s[\s\S]*?data-rating="good"[\s\S]*?1.8 s/,
    );
    expect(load).toMatch(/data-metric="speed_index_ms"[\s\S]*?no threshold[\s\S]*?1.4 s/);
    expect(load).toMatch(/data-metric="ttfb_ms"[\s\S]*?320 ms/);
    expect(load).toContain('<img src="/assets/signed/flow-run-step-0.jpg?sig=abc"');
    expect(load).toContain(
      '<strong>Eliminate render-blocking resources</strong> <span class="muted">Potential savings of 420 ms</span>',
    );
    expect(load).toContain('<code>https://shop.example/app.css</code>');
    const timespan = step(page, 'step-1');
    expect(timespan).toContain('mode-timespan');
    expect(timespan).toMatch(/data-metric="inp_ms"[\s\S]*?data-rating="good"/);
    expect(timespan).not.toContain('data-metric="lcp_ms"');
    const snapshot = step(page, 'step-7');
    expect(snapshot).toContain('A snapshot has no timings');
    expect(snapshot).toMatch(
      /data-score="accessibility"><span class="score-pill score-poor">88|data-score="accessibility"><span class="score-pill score-average">88/,
    );
    expect(snapshot).not.toContain('data-score="performance"');
    expect(page).toContain('Lighthouse 13.5.0, Chromium 140.0.7339.80');
  });

  it('speaks German', () => {
    const page = render(finishedRun(), 'de');
    expect(page).toContain('Lauf von Sign in and search');
    expect(page).toContain('>Zeitspanne</span>');
    expect(page).toContain('gut ≤ 2,5 s, schlecht &gt; 4 s');
    expect(page).toContain('>Beendet</span>');
    expect(page).toContain('Eine Momentaufnahme hat keine Zeiten');
  });

  it('names the step a failed run stopped in, with its message and screenshot, and the steps after it as not run', () => {
    const run = failedRun();
    expect(stepOutcomes(run).map((s) => [s.index, s.state])).toEqual([
      [0, 'measured'],
      [1, 'failed'],
      [7, 'not_run'],
      [8, 'not_run'],
    ]);
    const page = render(run);
    const failure = element(page, 'failure');
    expect(failure).toContain('The run stopped at step 4 (Type into a field: #password).');
    expect(failure).toContain(
      '<strong>An element was not found</strong>: <span id="failure-message">No element matches #password after 10 s.</span>',
    );
    expect(failure).toContain('src="/assets/signed/flow-run-failure.jpg?sig=abc"');
    expect(step(page, 'step-1')).toContain('The run stopped in this step.');
    expect(step(page, 'step-8')).toContain('Not run: the run stopped before this step.');
    const german = render(run, 'de');
    expect(german).toContain('Der Lauf hat bei Schritt 4 angehalten (In ein Feld tippen: #password).');
    expect(german).toContain('Nicht ausgeführt');
  });

  it('refreshes itself while queued or running', () => {
    const page = render({ ...finishedRun(), status: 'running', finishedAt: null, steps: [] });
    expect(page).toContain('<meta http-equiv="refresh" content="5">');
    expect(page).toContain('This run has not ended yet');
  });

  it("escapes the flow's name, step names and the failure message", () => {
    const run = failedRun();
    run.definition = { ...run.definition, name: HOSTILE_NAME };
    run.failure!.message = '<img src=x onerror=alert(1)>';
    run.steps[0]!.name = '<script>step()</script>';
    const page = render(run);
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain(escapeHtml(HOSTILE_NAME));
  });
});

describe('two runs compared', () => {
  const render = (before: FlowRun, after: FlowRun, locale: Locale = 'en') =>
    flowComparePage({
      chrome: chromeFor(locale),
      csrf: CSRF,
      flowId: 'flow-1',
      before,
      after,
      imageUrl: (run, asset) => `/assets/signed/${run.id}/${asset}`,
    });

  it('matches steps by place and mode and marks each difference by the single-value rules', () => {
    const page = render(finishedRun('run-a'), finishedRun('run-b', true));
    const load = step(page, 'pair-0-navigation');
    expect(load).toMatch(
      /data-metric="lcp_ms"[\s\S]*?1.8 s<\/td><td data-label="After">3.4 s<\/td><td><span class="worse" data-change="worse">\+1.6 s <span class="verdict"><span aria-hidden="true">✗<\/span> worse/,
    );
    expect(load).toMatch(/data-metric="fcp_ms"[\s\S]*?data-change="no_significant_change">±0/);
    expect(load).toMatch(/data-score="performance"[\s\S]*?data-change="worse">−22/);
    expect(load).toContain('within ±250 ms is noise (the default band)');
    expect(load).toContain('src="/assets/signed/run-a/flow-run-step-0.jpg"');
    expect(load).toContain('src="/assets/signed/run-b/flow-run-step-0.jpg"');
    const timespan = step(page, 'pair-1-timespan');
    expect(timespan).toMatch(/data-metric="inp_ms"[\s\S]*?data-change="not_judged">\+280 ms[\s\S]*?not judged/);
    expect(timespan).toMatch(/data-metric="tbt_ms"[\s\S]*?data-change="worse"/);
    expect(page).toContain('href="/flows/flow-1/runs/run-a"');
    expect(page).not.toContain('id="definition-changed"');
    const german = render(finishedRun('run-a'), finishedRun('run-b', true), 'de');
    expect(german).toContain('Zwei Läufe im Vergleich');
    expect(german).toContain('schlechter');
    expect(german).toContain('innerhalb ±250 ms ist Rauschen (Standardband)');
  });

  it('says when a step was not measured in both runs, and when the flow changed between them', () => {
    const after = failedRun();
    after.definition = { ...after.definition, steps: [...after.definition.steps, { type: 'snapshot', name: 'End' }] };
    const page = render(finishedRun('run-a'), after);
    expect(step(page, 'pair-7-snapshot')).toContain('This step was not measured in both runs.');
    expect(step(page, 'pair-9-snapshot')).toContain('Only in the later run.');
    expect(page).toContain('id="definition-changed"');
    expect(step(page, 'pair-0-navigation')).toContain('data-metric="lcp_ms"');
  });

  it("escapes the flow's name", () => {
    const before = finishedRun('a');
    const after = finishedRun('b');
    after.definition = { ...after.definition, name: HOSTILE_NAME };
    const page = render(before, after);
    expect(page).not.toContain('<script>');
  });
});
