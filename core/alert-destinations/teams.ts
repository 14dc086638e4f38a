import { CHAT_LABELS, cutText, stateAndSeverity, type ChatNotice } from './notice.ts';

/**
 * A Microsoft Teams message with one Adaptive Card, as Teams incoming webhooks and Workflows ("Post to a
 * channel when a webhook request is received") take it: `{type: "message", attachments: [{contentType:
 * "application/vnd.microsoft.card.adaptive", content: AdaptiveCard 1.4}]}`. The card: a heading coloured by
 * severity, the message, the values as a FactSet (the page among them), and an Action.OpenUrl to the report.
 * Teams refuses messages over 28 KB; every text is cut well below that.
 */
export const TEAMS_LIMITS = { title: 200, text: 2000, factValue: 500, facts: 12 } as const;
export const ADAPTIVE_CARD_CONTENT_TYPE = 'application/vnd.microsoft.card.adaptive';

export interface TeamsTextBlock {
  type: 'TextBlock';
  text: string;
  wrap: true;
  weight?: 'Bolder';
  size?: 'Medium';
  color?: 'Attention' | 'Warning' | 'Good' | 'Default';
  isSubtle?: boolean;
  spacing?: 'Small';
}

export interface TeamsFactSet {
  type: 'FactSet';
  facts: Array<{ title: string; value: string }>;
}

export interface AdaptiveCard {
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json';
  type: 'AdaptiveCard';
  version: '1.4';
  body: Array<TeamsTextBlock | TeamsFactSet>;
  actions: Array<{ type: 'Action.OpenUrl'; title: string; url: string }>;
  msteams: { width: 'Full' };
}

export interface TeamsMessage {
  type: 'message';
  attachments: Array<{ contentType: typeof ADAPTIVE_CARD_CONTENT_TYPE; contentUrl: null; content: AdaptiveCard }>;
}

/** Markdown in TextBlocks and facts: a backslash keeps `*`, `_`, `[`, `]` and friends literal. */
const plain = (text: string): string => text.replace(/([\\`*_[\]#~>])/g, '\\$1');

export function teamsMessage(notice: ChatNotice, baseUrl: string): TeamsMessage {
  const text = CHAT_LABELS[notice.locale];
  const { state, severity } = stateAndSeverity(notice);
  const color =
    notice.state === 'resolved'
      ? 'Good'
      : notice.severity === 'critical'
        ? 'Attention'
        : notice.severity === 'warning'
          ? 'Warning'
          : 'Default';
  const page = notice.page
    ? [
        {
          title: notice.page.url === null ? text.site : text.page,
          value: notice.page.url
            ? `[${plain(cutText(`${notice.page.host}${notice.page.path}`, TEAMS_LIMITS.factValue))}](${encodeURI(decodeURISafe(notice.page.url)).replaceAll(')', '%29')})`
            : plain(notice.page.host),
        },
      ]
    : [];
  const facts = [
    { title: text.status, value: state },
    ...(severity ? [{ title: text.severity, value: severity }] : []),
    ...page,
    ...notice.facts.map(({ label, value }) => ({ title: label, value: plain(cutText(value, TEAMS_LIMITS.factValue)) })),
  ].slice(0, TEAMS_LIMITS.facts);
  const card: AdaptiveCard = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body: [
      {
        type: 'TextBlock',
        text: plain(cutText(`${state}: ${notice.title}`, TEAMS_LIMITS.title)),
        wrap: true,
        weight: 'Bolder',
        size: 'Medium',
        color,
      },
      { type: 'TextBlock', text: plain(cutText(notice.message, TEAMS_LIMITS.text)), wrap: true },
      { type: 'FactSet', facts },
      { type: 'TextBlock', text: notice.at, wrap: true, isSubtle: true, spacing: 'Small' },
    ],
    actions: [{ type: 'Action.OpenUrl', title: text.links[notice.link.kind], url: `${baseUrl}${notice.link.path}` }],
    msteams: { width: 'Full' },
  };
  return {
    type: 'message',
    attachments: [{ contentType: ADAPTIVE_CARD_CONTENT_TYPE, contentUrl: null, content: card }],
  };
}

/** A URL as stored may hold escapes already; decoded first so that encodeURI does not double them. */
function decodeURISafe(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}
