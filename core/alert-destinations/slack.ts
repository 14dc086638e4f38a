import { CHAT_LABELS, cutText, stateAndSeverity, type ChatNotice } from './notice.ts';

/**
 * A Slack incoming-webhook message (https://api.slack.com/messaging/webhooks): `text` (the notification's
 * fallback) and Block Kit `blocks`: a header, a section with the message and the values as fields, a section
 * with the page, a context line with the link to the report. Slack's limits (Block Kit reference): header
 * text 150 characters, section text 3000, at most 10 fields of 2000 each, at most 10 context elements.
 */
export const SLACK_LIMITS = {
  headerText: 150,
  sectionText: 3000,
  fields: 10,
  fieldText: 2000,
  contextElements: 10,
  /** The top-level text is a notification's fallback; Slack cuts at 40 000, kept short here. */
  text: 3000,
} as const;

export interface SlackText {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  emoji?: boolean;
}

export type SlackBlock =
  | { type: 'header'; text: SlackText & { type: 'plain_text' } }
  | { type: 'section'; text: SlackText; fields?: SlackText[] }
  | { type: 'context'; elements: SlackText[] };

export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

/** mrkdwn's three control characters (Slack: "Escaping text"). */
export const slackEscape = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Escaped and cut to `max` characters, never inside an entity. */
const mrkdwn = (text: string, max: number): string => {
  const escaped = slackEscape(text);
  if ([...escaped].length <= max) return escaped;
  return cutText(escaped, max - 6).replace(/&[a-z]{0,3}…$/, '…');
};

/** A URL inside `<url|label>`: `|` and `>` would end it early. */
const linkUrl = (url: string): string => url.replaceAll('|', '%7C').replaceAll('>', '%3E').replaceAll('<', '%3C');
const link = (url: string, label: string) => `<${linkUrl(url)}|${slackEscape(label).replaceAll('|', '¦')}>`;

/** Longer page URLs are not linked: the section's text (3000) must hold the link and its label. */
const PAGE_URL_LIMIT = 2048;

const EMOJI = { resolved: ':white_check_mark:', critical: ':red_circle:', warning: ':warning:', other: ':bell:' };

export function slackMessage(notice: ChatNotice, baseUrl: string): SlackMessage {
  const text = CHAT_LABELS[notice.locale];
  const { state, severity } = stateAndSeverity(notice);
  const emoji = notice.state === 'resolved' ? EMOJI.resolved : notice.severity ? EMOJI[notice.severity] : EMOJI.other;
  const pageName = notice.page ? `${notice.page.host}${notice.page.path}` : null;
  const fields: SlackText[] = [
    { label: text.status, value: state },
    ...(severity ? [{ label: text.severity, value: severity }] : []),
    ...notice.facts,
  ]
    .slice(0, SLACK_LIMITS.fields)
    .map(({ label, value }) => ({
      type: 'mrkdwn',
      text: mrkdwn(`*${label}*\n${value}`, SLACK_LIMITS.fieldText),
    }));
  const blocks: SlackBlock[] = [
    {
      type: 'header',
      text: { type: 'plain_text', text: cutText(`${state}: ${notice.title}`, SLACK_LIMITS.headerText), emoji: true },
    },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: mrkdwn(`${emoji} ${notice.message}`, SLACK_LIMITS.sectionText) },
      fields,
    },
  ];
  if (notice.page && pageName) {
    const label = notice.page.url === null ? text.site : text.page;
    // The name cut to 200 characters; a URL too long for the section is left out (the name stays).
    const name = cutText(pageName, 200);
    const shown =
      notice.page.url && notice.page.url.length <= PAGE_URL_LIMIT ? link(notice.page.url, name) : slackEscape(name);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: mrkdwn(`*${label}*\n`, 100) + shown } });
  }
  blocks.push({
    type: 'context',
    elements: [
      { type: 'mrkdwn', text: link(`${baseUrl}${notice.link.path}`, text.links[notice.link.kind]) },
      {
        type: 'mrkdwn',
        text: `<!date^${Math.floor(Date.parse(notice.at) / 1000)}^{date_short_pretty} {time}|${notice.at}>`,
      },
    ],
  });
  const fallback = `${state}${severity ? ` (${severity})` : ''}: ${notice.title}${pageName ? ` – ${pageName}` : ''}`;
  return { text: mrkdwn(fallback, SLACK_LIMITS.text), blocks };
}
