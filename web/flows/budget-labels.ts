import type { Locale } from '../../core/i18n/locale.ts';
import type { BudgetUnit } from '../../core/monitoring/budgets.ts';

/**
 * The flow budgets' words in English and German (the page, and its part of the flow page). Metric names (LCP,
 * INP, …) stay English in both, as on the report; score names are the flow pages' (labels.ts `scoreNames`).
 */
const en = {
  title: 'Budgets',
  pageTitle: (flow: string) => `Budgets of ${flow}`,
  intro: (critical: number, margin: number, points: number) =>
    `An alert when a finished run of this flow, while it is monitored daily, breaks a budget of a step: a metric above its maximum or a score below its minimum. Critical at ${critical} % or more past the budget; resolved once every budget holds again with a margin (metrics at ${100 - margin} % of their budget or less, scores ${points} points above their minimum). Budgets are drawn on the step’s history charts. Leave a field empty for no budget.`,
  notMonitored: 'This flow is not monitored daily: its budgets raise no alert until it is.',
  step: (position: number, name: string) => `Step ${position}: ${name}`,
  budgetFor: 'Budget for',
  budget: 'Budget',
  atMost: (unit: string) => `at most, ${unit}`,
  atLeast: 'at least, 0–100',
  units: { ms: 'ms', unitless: 'unitless', points: 'points' } as Record<BudgetUnit, string>,
  none: 'No budgets set.',
  summary: (count: number) => (count === 1 ? '1 budget set.' : `${count} budgets set.`),
  edit: 'Set budgets',
  save: 'Save budgets',
  backToFlow: (flow: string) => `Back to ${flow}`,
};

const de: typeof en = {
  title: 'Budgets',
  pageTitle: (flow: string) => `Budgets von ${flow}`,
  intro: (critical: number, margin: number, points: number) =>
    `Ein Alarm, wenn ein abgeschlossener Lauf dieses Ablaufs, solange er täglich überwacht wird, ein Budget eines Schritts überschreitet: eine Metrik über ihrem Höchstwert oder ein Score unter seinem Mindestwert. Kritisch ab ${critical} % über dem Budget; behoben, sobald alle Budgets wieder mit Abstand eingehalten werden (Metriken höchstens ${100 - margin} % ihres Budgets, Scores ${points} Punkte über ihrem Mindestwert). Die Budgets stehen in den Verlaufsdiagrammen des Schritts. Ein leeres Feld heißt: kein Budget.`,
  notMonitored: 'Dieser Ablauf wird nicht täglich überwacht: Seine Budgets lösen erst dann Alarme aus.',
  step: (position: number, name: string) => `Schritt ${position}: ${name}`,
  budgetFor: 'Budget für',
  budget: 'Budget',
  atMost: (unit: string) => `höchstens, ${unit}`,
  atLeast: 'mindestens, 0–100',
  units: { ms: 'ms', unitless: 'ohne Einheit', points: 'Punkte' },
  none: 'Keine Budgets gesetzt.',
  summary: (count: number) => (count === 1 ? '1 Budget gesetzt.' : `${count} Budgets gesetzt.`),
  edit: 'Budgets festlegen',
  save: 'Budgets speichern',
  backToFlow: (flow: string) => `Zurück zu ${flow}`,
};

export type FlowBudgetLabels = typeof en;
export const flowBudgetLabels = (locale: Locale): FlowBudgetLabels => (locale === 'de' ? de : en);
