import { createHash } from 'node:crypto';
import { scanFailureView } from '../../core/i18n/failures.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { Scan, ScanStatus } from '../../core/scan/scan.ts';
import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { scanText } from './labels.ts';
import { statusText } from './scan-table.ts';

export interface ProgressState {
  status: ScanStatus;
  /** What is happening now (`desktop`, `mobile`, or a run of several), while running. */
  step: string | null;
  message: string;
  reportUrl: string;
}

export function progressState(scan: Scan, locale: Locale): ProgressState {
  const text = scanText(locale);
  const step = scan.status === 'running' ? scan.progress : null;
  const message =
    scan.status === 'queued'
      ? text.progressQueued
      : scan.status === 'running'
        ? step
          ? stepText(step, locale)
          : text.progressRunning
        : scan.status === 'finished'
          ? text.progressFinished
          : scanFailureView(scan.failureCode, scan.failureHttpStatus, locale).message;
  return { status: scan.status, step, message, reportUrl: `/reports/${scan.publicId}` };
}

/** `desktop`, `mobile`, or `desktop 2/3` for a run of several, in words. */
function stepText(step: string, locale: Locale): string {
  const [factor = '', run] = step.split(' ');
  const label = scanText(locale).progressStep[factor] ?? scanText(locale).progressRunning;
  return run ? `${label} ${run}` : label;
}

export function progressPage(chrome: Chrome, scan: Scan, csrf: string): string {
  const text = scanText(chrome.locale);
  const state = progressState(scan, chrome.locale);
  const ended = scan.status === 'finished' || scan.status === 'failed';
  const failed = scan.status === 'failed';
  const order: ScanStatus[] = ['queued', 'running', 'finished'];
  const reached = failed ? 1 : order.indexOf(scan.status);
  const head = ended
    ? undefined
    : html`<noscript><meta http-equiv="refresh" content="3"></noscript><script src="${PROGRESS_SCRIPT_PATH}" defer></script>`;
  // A failed scan stopped where it was running: that step says so, and nothing after it is reached.
  const step = (s: ScanStatus, i: number) => {
    const now = i === reached;
    const state = i < reached ? 'done' : now ? (failed ? 'failed' : 'now') : '';
    return html`<li class="${state}" data-step="${s}"${now ? new SafeHtml(' aria-current="step"') : ''}>${statusText(now && failed ? 'failed' : s, chrome.locale)}</li>`;
  };
  const title = failed ? text.failedTitle : text.progressTitle;
  return layout(
    title,
    html`
      <h1>${title}</h1>
      <section id="progress" data-scan-id="${scan.publicId}" data-status="${scan.status}" data-events="/scans/${scan.publicId}/events" aria-live="polite">
        <p><strong class="url">${scan.url}</strong> · ${scan.region}</p>
        <ol class="steps">${order.map(step)}</ol>
        <p id="progress-message" class="${scan.status === 'failed' ? 'error' : ''}">${state.message}</p>
        ${scan.status === 'finished' ? html`<p><a class="button" href="${state.reportUrl}" id="open-report">${text.openReport}</a></p>` : ''}
        ${
          scan.status === 'failed'
            ? html`<form method="post" action="/scans" id="retry-form"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="url" value="${scan.url}">
              <input type="hidden" name="region" value="${scan.region}">${scan.isPublic ? html`<input type="hidden" name="public" value="1">` : ''}<input type="hidden" name="force" value="1">
              <button type="submit" id="retry">${text.retry}</button></form>`
            : ''
        }
        ${ended ? '' : html`<noscript><p class="muted">${text.progressNoScript}</p></noscript>`}
      </section>`,
    { ...chrome, head, sheets: ['scan-progress'] },
  );
}

/** Progressive enhancement of the progress page: follows the scan's events and opens the report when it is done. */
export const PROGRESS_SCRIPT = `(() => {
  const box = document.getElementById('progress');
  if (!box || !window.EventSource) return;
  const message = document.getElementById('progress-message');
  const order = ['queued', 'running', 'finished'];
  const source = new EventSource(box.dataset.events);
  source.addEventListener('progress', (event) => {
    const state = JSON.parse(event.data);
    message.textContent = state.message;
    box.dataset.status = state.status;
    const reached = state.status === 'failed' ? 1 : order.indexOf(state.status);
    box.querySelectorAll('.steps li').forEach((li, i) => {
      li.className = i < reached ? 'done' : i === reached ? 'now' : '';
      if (i === reached) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
    });
    if (state.status === 'finished') { source.close(); window.location.assign(state.reportUrl); }
    if (state.status === 'failed') { source.close(); window.location.reload(); }
  });
})();
`;

/** The script's address carries a hash of its content, so browsers may keep it for a year and still get a changed one at once. */
export const PROGRESS_SCRIPT_VERSION = createHash('sha256').update(PROGRESS_SCRIPT).digest('hex').slice(0, 12);
export const PROGRESS_SCRIPT_PATH = `/static/progress.js?v=${PROGRESS_SCRIPT_VERSION}`;
