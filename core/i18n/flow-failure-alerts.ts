import type { Alert } from '../monitoring/alert.ts';
import { pageName } from '../url.ts';
import type { Locale } from './locale.ts';

/**
 * A flow_failed alert's title and message (core/i18n/alerts.ts renders the other types): the flow, the step the
 * run stopped at with the runner's reason (its message is English in both languages, as on the run's page), how
 * many runs in a row failed once it is critical, and, once resolved, that a run got through again.
 */

type FlowFailureFacts = Pick<Alert, 'details' | 'host' | 'url' | 'resolvedAt'>;

const TEXTS = {
  en: {
    title: (flow: string, index: number | null, step: string) =>
      index === null ? `Flow “${flow}” failed` : `Flow “${flow}” failed at step ${index} (${step})`,
    stopped: (flow: string, page: string, index: number, step: string) =>
      `The run of the flow “${flow}” on ${page} stopped at step ${index} (${step}):`,
    notCompleted: (flow: string, page: string) => `The run of the flow “${flow}” on ${page} could not be completed:`,
    inARow: (runs: number) => ` It failed on ${runs} runs in a row.`,
    recovered: ' Resolved: the next run got through without failing.',
  },
  de: {
    title: (flow: string, index: number | null, step: string) =>
      index === null
        ? `Ablauf „${flow}“ fehlgeschlagen`
        : `Ablauf „${flow}“ bei Schritt ${index} fehlgeschlagen (${step})`,
    stopped: (flow: string, page: string, index: number, step: string) =>
      `Der Lauf des Ablaufs „${flow}“ auf ${page} hat bei Schritt ${index} (${step}) angehalten:`,
    notCompleted: (flow: string, page: string) =>
      `Der Lauf des Ablaufs „${flow}“ auf ${page} konnte nicht abgeschlossen werden:`,
    inARow: (runs: number) => ` Er ist ${runs} Läufe in Folge fehlgeschlagen.`,
    recovered: ' Behoben: Der nächste Lauf ist ohne Fehler durchgelaufen.',
  },
} as const;

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

export function flowFailureAlertText(alert: FlowFailureFacts, locale: Locale): { title: string; message: string } {
  const t = TEXTS[locale];
  const { details } = alert;
  const flow = details.flow?.name ?? '';
  const failed = details.failedStep ?? { index: null, step: '', message: '' };
  const page = pageName(alert.url, alert.host);
  const where = failed.index === null ? t.notCompleted(flow, page) : t.stopped(flow, page, failed.index, failed.step);
  return {
    title: t.title(flow, failed.index, failed.step),
    message:
      `${where} ${sentence(failed.message)}` +
      (details.value > 1 ? t.inARow(details.value) : '') +
      (alert.resolvedAt ? t.recovered : ''),
  };
}
