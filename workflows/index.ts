/** Every workflow the worker registers. Deterministic code only: see the eslint rules for workflows/. */
export { healthCheckWorkflow } from './health.ts';
export { scanWorkflow } from './scan.ts';
export { scanDispatcherWorkflow } from './scan-dispatch.ts';
export { reconcileScansWorkflow, reconcileTargetsWorkflow } from './reconcile.ts';
export { targetScanWorkflow } from './target-scan.ts';
export { alertEmailWorkflow } from './alert-emails.ts';
export { targetAlertsWorkflow } from './target-alerts.ts';
export { targetConfirmWorkflow } from './target-confirm.ts';
export { webhookDeliveryWorkflow } from './webhook-delivery.ts';
export { rumAlertCheckWorkflow, rumAlertEmailWorkflow } from './rum-alerts.ts';
export { accountDeletionWorkflow } from './account-deletion.ts';
export { flowRunWorkflow } from './flow-run.ts';
export { flowScheduleWorkflow } from './flow-schedule.ts';
