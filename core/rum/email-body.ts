import type { Locale } from '../i18n/locale.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What a live-data e-mail to a site's owner says, in their language. */
export interface LiveDataEmailParts {
  locale: Locale;
  hello: string;
  /** A heading above the message (the alert's name), if any. */
  heading?: string;
  message: string;
  dashboardLabel: string;
  dashboardUrl: string;
  /** Why the owner gets this e-mail. */
  why: string;
}

/** The text and HTML bodies every live-data e-mail shares: greeting, message, the site's dashboard, why. */
export function liveDataEmailBody(parts: LiveDataEmailParts): { text: string; html: string } {
  const text = [
    parts.hello,
    '',
    parts.message,
    '',
    `${parts.dashboardLabel}: ${parts.dashboardUrl}`,
    '',
    parts.why,
    '',
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${parts.locale}"><body style="font-family: sans-serif; line-height: 1.5">`,
    `<p>${escapeHtml(parts.hello)}</p>`,
    ...(parts.heading ? [`<h2 style="font-size: 1.1em">${escapeHtml(parts.heading)}</h2>`] : []),
    `<p>${escapeHtml(parts.message)}</p>`,
    `<p>${escapeHtml(parts.dashboardLabel)}: <a href="${escapeHtml(parts.dashboardUrl)}">${escapeHtml(parts.dashboardUrl)}</a></p>`,
    `<p style="color: #666; font-size: 0.9em">${escapeHtml(parts.why)}</p>`,
    '</body></html>',
  ].join('\n');
  return { text, html };
}
