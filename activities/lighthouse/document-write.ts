import { DETAIL_LIMITS, type DocumentWrite } from '../../core/scan/details.ts';

/** The fields of an entry of Lighthouse's ConsoleMessages artifact read here (its LH.Artifacts.ConsoleMessage). */
export interface ConsoleMessage {
  source: string;
  text?: string;
  url?: string;
  /** Counted from 0, as Chromium reports them. */
  lineNumber?: number;
  columnNumber?: number;
}

/** Chromium's words for a document.write() call ("Avoid using document.write()."), in its discouraged-API violation. */
const DOCUMENT_WRITE = /document\.write/;

/**
 * The page's document.write() calls, from Lighthouse's ConsoleMessages artifact: the discouraged-API violations
 * Chromium reports to the report Lighthouse sets up before it navigates (which needs Chromium without
 * RenderDocument: core/chromium.ts). Each call once (a call in a loop is reported at every pass), in the order
 * made, with its script and place counted from 1; at most DETAIL_LIMITS.items. Lighthouse 13 has no audit for
 * them any more, so the result itself does not say.
 */
export function documentWrites(messages: readonly ConsoleMessage[] | undefined): DocumentWrite[] {
  const calls = new Map<string, DocumentWrite>();
  for (const message of messages ?? []) {
    if (calls.size >= DETAIL_LIMITS.items) break;
    if (message.source !== 'violation' || !DOCUMENT_WRITE.test(message.text ?? '')) continue;
    if (!message.url || !/^https?:/.test(message.url) || typeof message.lineNumber !== 'number') continue;
    const call: DocumentWrite = {
      url: message.url.slice(0, DETAIL_LIMITS.text),
      line: message.lineNumber + 1,
      column: (message.columnNumber ?? 0) + 1,
    };
    calls.set(`${call.url}:${call.line}:${call.column}`, call);
  }
  return [...calls.values()];
}
