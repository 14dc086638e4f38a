import {
  FLOW_STEP_TYPES,
  type FlowSecretKind,
  type FlowStepType,
  type LighthouseStepMode,
  type MeasuredStepType,
} from '../../core/flows/flow.ts';
import type { FlowBudgets } from '../../core/flows/flow-budgets.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { FORM_FACTORS } from '../../core/scan/observation.ts';
import type { FlowStepSeries } from '../../services/flows.ts';
import { html, SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { planLink } from '../plan/link.ts';
import {
  FLOW_NAME_MAX,
  SELECTOR_MAX,
  STEP_FIELDS,
  STEP_NAME_MAX,
  TEXT_MAX,
  type FlowFormValues,
  type StepField,
  type StepRow,
} from './form.ts';
import { flowBudgetsSection } from './budgets-page.ts';
import { flowHistorySection } from './history.ts';
import { FLOW_LABELS, type FlowNotice } from './labels.ts';
import {
  FLOW_PATHS as P,
  type FlowFormErrors,
  type FlowPageBase,
  type FlowRunSummary,
  type FlowSecretSummary,
  type MeasuredStep,
} from './model.ts';
import {
  csrfField,
  fieldError,
  fieldId,
  formError,
  modeBadge,
  noticeBox,
  statusBadge,
  timeOf,
  whenText,
} from './parts.ts';

export interface FlowEditorPageModel extends FlowPageBase {
  /** The stored flow's id; absent on the new-flow page (the form creates, the import is offered). */
  flowId?: string;
  /** The form as stored (form.ts valuesFromDefinition), as typed (readFlowForm), or after add/remove. */
  values: FlowFormValues;
  /** Errors beside their fields (`name`, `form_factor`, `steps`, `steps/3/selector`, `form`). */
  errors?: FlowFormErrors;
  /** The plan's steps per flow (-1: no limit), said above the steps. */
  maxFlowSteps: number;
  /** The flow's secrets by name and kind (never a value); the section is shown for a stored flow only. */
  secrets?: readonly FlowSecretSummary[];
  /** After a rejected secret: the name and kind typed (the value is never shown again) and the errors. */
  secretForm?: { values: { name: string; kind: string }; errors: FlowFormErrors };
  /** After a rejected import: its errors (`recording`); the pasted text is not shown again. */
  importErrors?: FlowFormErrors;
  /** After an import: what the importer left out or changed, in the page's language or English. */
  importWarnings?: readonly string[];
  /** After an import: the secrets its steps type (by name and kind), to set once the flow is created. */
  pendingSecrets?: ReadonlyArray<{ name: string; kind: FlowSecretKind }>;
  /** A stored flow's secrets that its steps type but that are not set (a run needs every one). */
  missingSecrets?: readonly string[];
  /** A stored flow's runs, newest first (a page's worth). */
  runs?: readonly FlowRunSummary[];
  /** Why Run now was refused (plan, hourly limit, the scheduler away), in the page's language. */
  runError?: string;
  /** A stored flow's series per measured step over the last `days` days (services/flows.ts flowHistory). */
  history?: { series: readonly FlowStepSeries[]; days: number };
  /** A stored flow's measured steps and their budgets: said on the page and drawn on the history charts. */
  budgets?: { steps: readonly MeasuredStep[]; set: FlowBudgets };
  /** Whether a stored flow runs daily on its schedule. */
  monitored?: boolean;
  /** Why turning monitoring on or off was refused, in the page's language; over the plan's limit with its link. */
  monitoringError?: { message: string; planLink?: boolean };
  notice?: FlowNotice;
}

/** The flow's page (its runs, the editor, its secrets), or the new-flow page (the editor and the import). */
export function flowEditorPage(model: FlowEditorPageModel): string {
  const { locale } = model.chrome;
  const t = FLOW_LABELS[locale];
  const errors = model.errors ?? {};
  const stored = model.flowId !== undefined;
  const heading = stored ? model.values.name || t.editTitle : t.newTitle;
  const body = html`<a class="back" href="${P.flows}">← ${t.allFlows}</a>
    <h1>${heading}</h1>${noticeBox(model.notice, locale)}
    ${stored ? html`${runsSection(model.flowId!, model, locale)}${monitoringSection(model.flowId!, model, locale)}${model.budgets ? flowBudgetsSection(model.flowId!, model.budgets.steps, model.budgets.set, locale) : html``}${historySection(model.flowId!, model, locale)}` : html``}
    ${editorForm(model, errors, locale)}
    ${stored ? html`${secretsSection(model.flowId!, model, locale)}${deleteSection(model.flowId!, model, locale)}` : html`${pendingSecrets(model, locale)}<p class="muted" id="secrets-later">${t.secretsAfterCreate}</p>${importSection(model, locale)}`}`;
  return layout(stored ? model.values.name || t.editTitle : t.newTitle, body, {
    ...model.chrome,
    sheets: ['monitoring', 'flows'],
  });
}

function runsSection(flowId: string, model: FlowEditorPageModel, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const runs = model.runs ?? [];
  const rows = runs.map((run, i) => {
    const before = runs.slice(i + 1).find((r) => r.status === 'finished');
    const when = whenText(run.requestedAt, locale);
    return html`<tr data-run-id="${run.id}"><td class="wide"><a href="${P.run(flowId, run.id)}">${timeOf(run.requestedAt, locale)}</a></td>
      <td data-label="${t.colStatus}">${statusBadge(run.status, locale)}</td>
      <td>${run.status === 'finished' && before ? html`<a class="compare" href="${P.compare(flowId, before.id, run.id)}" aria-label="${t.compareWithBefore(when)}">${t.compare}</a>` : html``}</td></tr>`;
  });
  return html`<section aria-labelledby="runs-heading" id="runs"><h2 id="runs-heading">${t.history}</h2>
    ${model.runError ? html`<p class="error form-error" role="alert" id="run-error">${model.runError}</p>` : html``}
    <form class="inline" method="post" action="${P.runNow(flowId)}" id="run-now-form">${csrfField(model.csrf)}<button type="submit" class="primary" id="run-now" aria-describedby="run-now-hint">${t.runNow}</button></form>
    <p class="hint" id="run-now-hint">${t.runNowHint}</p>
    ${
      rows.length
        ? html`<table id="run-history" class="stack"><thead><tr><th scope="col">${t.colStarted}</th><th scope="col">${t.colStatus}</th><th scope="col"><span class="visually-hidden">${t.compare}</span></th></tr></thead><tbody>${rows}</tbody></table>`
        : html`<p id="no-runs">${t.noRuns}</p>`
    }</section>`;
}

/** Monitoring on or off: the state in words and one button that turns it the other way. */
function monitoringSection(flowId: string, model: FlowEditorPageModel, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const monitored = model.monitored ?? false;
  const error = model.monitoringError;
  return html`<section aria-labelledby="monitoring-heading" id="monitoring"><h2 id="monitoring-heading">${t.monitoringTitle}</h2>
    ${error ? html`<p class="error form-error" role="alert" id="monitoring-error">${error.message}${error.planLink ? html` ${planLink(locale)}` : html``}</p>` : html``}
    <p id="monitoring-state" data-monitored="${String(monitored)}">${monitored ? t.monitoredState : t.notMonitoredState}</p>
    <form class="inline" method="post" action="${P.monitoring(flowId)}" id="monitoring-form">${csrfField(model.csrf)}<input type="hidden" name="monitored" value="${String(!monitored)}">
      <button type="submit" class="${monitored ? 'secondary' : 'primary'}" id="monitoring-toggle" aria-describedby="monitoring-state">${monitored ? t.stopMonitoring : t.monitorDaily}</button></form></section>`;
}

/** The per-step charts, once the flow has a finished run (before that there is nothing to draw). */
function historySection(flowId: string, model: FlowEditorPageModel, locale: Locale): SafeHtml {
  const history = model.history;
  const finished = (model.runs ?? []).some((run) => run.status === 'finished');
  if (!history || (!finished && !history.series.length)) return html``;
  return flowHistorySection(history.series, {
    locale,
    days: history.days,
    runHref: (runId) => P.run(flowId, runId),
    budgets: model.budgets?.set,
  });
}

const selected = (yes: boolean) => new SafeHtml(yes ? ' selected' : '');

function editorForm(model: FlowEditorPageModel, errors: FlowFormErrors, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const { values } = model;
  const stored = model.flowId !== undefined;
  const count = Object.keys(errors).length;
  const name = fieldError('name', errors, locale);
  const factor = fieldError('form_factor', errors, locale);
  const steps = fieldError('steps', errors, locale);
  const secretNames = (model.secrets ?? []).map((s) => s.name);
  // Enter in a text field presses the form's first button: a hidden Save comes before every Remove.
  return html`<section aria-labelledby="editor-heading" id="editor"><h2 id="editor-heading">${stored ? t.editTitle : t.newTitle}</h2>
    <form method="post" action="${stored ? P.save(model.flowId!) : P.create}" id="flow-form" novalidate>${csrfField(model.csrf)}
      <button type="submit" name="_action" value="save" class="visually-hidden" tabindex="-1" aria-hidden="true">${t.save}</button>
      ${count ? html`<p class="error form-error" role="alert" id="form-errors">${t.formHasErrors(count)}</p>` : html``}${formError(errors, locale)}
      <div class="field"><label for="name">${t.name}</label><input id="name" name="name" type="text" required maxlength="${FLOW_NAME_MAX}" value="${values.name}"${name.attributes}>${name.message}</div>
      <div class="field"><label for="form_factor">${t.formFactor}</label><select id="form_factor" name="form_factor"${factor.attributes}>${FORM_FACTORS.map(
        (f) => html`<option value="${f}"${selected(values.formFactor === f)}>${t.formFactors[f]}</option>`,
      )}</select>${factor.message}</div>
      ${
        model.importWarnings?.length
          ? html`<div class="import-warnings" id="import-warnings" role="note"><h3>${t.importWarnings}</h3><ul>${model.importWarnings.map((w) => html`<li>${w}</li>`)}</ul></div>`
          : html``
      }
      <fieldset class="steps" id="steps"><legend>${t.stepsTitle}</legend>
        <p class="hint" id="steps-intro">${t.stepsIntro}${model.maxFlowSteps === -1 ? '' : ` ${t.stepsAllowance(model.maxFlowSteps)}`}</p>${steps.message}
        <ol class="step-rows">${values.steps.map((row, index) => stepRow(row, index, errors, locale))}</ol>
        ${secretNames.length ? html`<datalist id="secret-names">${secretNames.map((n) => html`<option value="${n}">`)}</datalist>` : html``}
        <div class="add-step"><div class="field"><label for="new_step_type">${t.newStepType}</label><select id="new_step_type" name="new_step_type">${FLOW_STEP_TYPES.map(
          (type) => html`<option value="${type}"${selected(type === 'click')}>${t.stepTypes[type]}</option>`,
        )}</select></div>
          <button type="submit" name="_action" value="add" id="add-step">${t.addStep}</button>
          <button type="submit" name="_action" value="refresh" class="secondary" id="refresh-steps" aria-describedby="type-change-hint">${t.refresh}</button></div>
        <p class="hint" id="type-change-hint">${t.typeChangeHint}</p>
      </fieldset>
      <button type="submit" name="_action" value="save" class="primary" id="save-flow">${stored ? t.save : t.create}</button>
    </form></section>`;
}

const MAX_LENGTH: Record<StepField, number> = {
  url: 2048,
  name: STEP_NAME_MAX,
  selector: SELECTOR_MAX,
  text: TEXT_MAX,
  secret: 40,
  secret_origin: 300,
  value: TEXT_MAX,
};

/** One step: its number (and mode, when measured), its type, the fields of that type, and its Remove. */
function stepRow(row: StepRow, index: number, errors: FlowFormErrors, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const at = `steps/${index}`;
  const known = (FLOW_STEP_TYPES as readonly string[]).includes(row.type) ? (row.type as FlowStepType) : null;
  const mode = known ? measuredMode(known) : null;
  const typeError = fieldError(`${at}/type`, errors, locale);
  const fields = known ? STEP_FIELDS[known] : [];
  const optional = (field: StepField) =>
    (known === 'navigate' && field === 'name') || field === 'secret' || field === 'secret_origin';
  const input = (field: StepField) => {
    const name = `${at}/${field}`;
    const id = fieldId(name);
    const hintId = `${id}-hint`;
    const error = fieldError(name, errors, locale, hintId);
    const list = field === 'secret' ? new SafeHtml(' list="secret-names" autocomplete="off"') : new SafeHtml('');
    return html`<div class="field field-${field}"><label for="${id}">${t.fields[field]}${optional(field) ? html` <span class="muted">${t.optional}</span>` : html``}</label>
      <input id="${id}" name="${name}" type="text" maxlength="${MAX_LENGTH[field]}" value="${row[field]}"${list}${error.attributes}>
      <p class="hint" id="${hintId}">${t.fieldHints[field]}</p>${error.message}</div>`;
  };
  return html`<li class="step" id="step-${index}" data-step-type="${row.type}"><fieldset><legend>${t.stepNumber(index + 1)}${mode ? html` ${modeBadge(mode, locale)}` : html``}</legend>
    <div class="field"><label for="${fieldId(`${at}/type`)}">${t.stepType}</label><select id="${fieldId(`${at}/type`)}" name="${at}/type"${typeError.attributes}>${
      known ? html`` : html`<option value="" selected></option>`
    }${FLOW_STEP_TYPES.map((type) => html`<option value="${type}"${selected(type === known)}>${t.stepTypes[type]}</option>`)}</select>${typeError.message}</div>
    ${fields.length ? fields.map(input) : html`<p class="muted no-fields">${t.noFields}</p>`}
    <button type="submit" name="_action" value="remove/${index}" class="secondary remove-step" aria-label="${t.removeStep(index + 1)}">${t.remove}</button>
  </fieldset></li>`;
}

/** The Lighthouse mode each measured type starts (as core/flows/flow.ts measuredSteps names them). */
const MODE_OF = {
  navigate: 'navigation',
  start_timespan: 'timespan',
  snapshot: 'snapshot',
} as const satisfies Record<MeasuredStepType, LighthouseStepMode>;

const measuredMode = (type: FlowStepType): LighthouseStepMode | null =>
  type in MODE_OF ? MODE_OF[type as MeasuredStepType] : null;

function secretsSection(flowId: string, model: FlowEditorPageModel, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const secrets = model.secrets ?? [];
  const missing = model.missingSecrets ?? [];
  // The first secret a run still needs is the one to add next.
  const next = missing[0] ?? '';
  const form = model.secretForm ?? { values: { name: next, kind: next === 'totp' ? 'totp' : 'password' }, errors: {} };
  const kindOptions = (chosen: string) =>
    (['password', 'totp'] as const).map(
      (kind) => html`<option value="${kind}"${selected(kind === chosen)}>${t.secretKinds[kind]}</option>`,
    );
  const rows = secrets.map((secret) => {
    const id = fieldId(`secret-${secret.name}`);
    return html`<tr data-secret="${secret.name}"><th scope="row" class="wide"><code>${secret.name}</code></th>
      <td data-label="${t.secretKind}">${t.secretKinds[secret.kind]}</td><td class="muted">${t.secretSetAt(whenText(secret.updatedAt, locale))}</td>
      <td><details class="replace-secret"><summary aria-label="${t.replaceNamed(secret.name)}">${t.replaceSecret}</summary>
        <form method="post" action="${P.secrets(flowId)}">${csrfField(model.csrf)}<input type="hidden" name="secret_name" value="${secret.name}">
          <div class="field"><label for="${id}-kind">${t.secretKind}</label><select id="${id}-kind" name="secret_kind">${kindOptions(secret.kind)}</select></div>
          <div class="field"><label for="${id}-value">${t.replaceValue(secret.name)}</label><input id="${id}-value" name="secret_value" type="password" autocomplete="new-password" required maxlength="1000"></div>
          <button type="submit" class="primary">${t.replaceSecret}</button></form></details>
        <form class="inline" method="post" action="${P.deleteSecret(flowId, secret.name)}">${csrfField(model.csrf)}<button type="submit" class="secondary delete-secret" aria-label="${t.deleteNamed(secret.name)}">${t.deleteSecret}</button></form></td></tr>`;
  });
  const nameError = fieldError('secret_name', form.errors, locale);
  const kindError = fieldError('secret_kind', form.errors, locale);
  const valueError = fieldError('secret_value', form.errors, locale, 'secret_value-hint');
  return html`<section aria-labelledby="secrets-heading" id="secrets"><h2 id="secrets-heading">${t.secretsTitle}</h2><p>${t.secretsIntro}</p>
    ${missing.length ? html`<p class="notice" role="note" id="missing-secrets">${t.missingSecrets(missing.join(', '))}</p>` : html``}
    ${
      rows.length
        ? html`<table id="secret-list" class="stack"><thead><tr><th scope="col">${t.secretName}</th><th scope="col">${t.secretKind}</th><th scope="col"><span class="visually-hidden">${t.secretValue}</span></th><th scope="col"><span class="visually-hidden">${t.replaceSecret}</span></th></tr></thead><tbody>${rows}</tbody></table>`
        : html`<p id="no-secrets">${t.noSecrets}</p>`
    }
    <form method="post" action="${P.secrets(flowId)}" id="add-secret" novalidate>${csrfField(model.csrf)}${formError(form.errors, locale)}
      <div class="field-row"><div class="field"><label for="secret_name">${t.secretName}</label><input id="secret_name" name="secret_name" type="text" required maxlength="40" autocomplete="off" value="${form.values.name}"${nameError.attributes}>${nameError.message}</div>
      <div class="field"><label for="secret_kind">${t.secretKind}</label><select id="secret_kind" name="secret_kind"${kindError.attributes}>${kindOptions(form.values.kind)}</select>${kindError.message}</div></div>
      <div class="field"><label for="secret_value">${t.secretValue}</label><input id="secret_value" name="secret_value" type="password" autocomplete="new-password" required maxlength="1000"${valueError.attributes}>
        <p class="hint" id="secret_value-hint">${t.secretValueHint}</p>${valueError.message}</div>
      <button type="submit" class="primary" id="add-secret-button">${t.addSecret}</button></form></section>`;
}

function importSection(model: FlowEditorPageModel, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const recording = fieldError('recording', model.importErrors ?? {}, locale, 'recording-hint');
  return html`<section aria-labelledby="import-heading" id="import"><h2 id="import-heading">${t.importTitle}</h2>
    <form method="post" action="${P.importRecording}" id="import-form">${csrfField(model.csrf)}${formError(model.importErrors ?? {}, locale)}
      <div class="field"><label for="recording">${t.recording}</label><textarea id="recording" name="recording" rows="8" required spellcheck="false"${recording.attributes}></textarea>
        <p class="hint" id="recording-hint">${t.importIntro}</p>${recording.message}</div>
      <button type="submit" id="import-button">${t.importButton}</button></form></section>`;
}

function pendingSecrets(model: FlowEditorPageModel, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  const pending = model.pendingSecrets ?? [];
  if (!pending.length) return html``;
  return html`<section aria-labelledby="pending-secrets-heading" id="pending-secrets"><h2 id="pending-secrets-heading">${t.pendingSecretsTitle}</h2>
    <p>${t.pendingSecretsIntro}</p><ul>${pending.map((secret) => html`<li data-secret="${secret.name}"><code>${secret.name}</code> (${t.secretKinds[secret.kind]})</li>`)}</ul></section>`;
}

function deleteSection(flowId: string, model: FlowEditorPageModel, locale: Locale): SafeHtml {
  const t = FLOW_LABELS[locale];
  return html`<section aria-labelledby="delete-heading" id="delete-flow"><h2 id="delete-heading">${t.deleteFlow}</h2>
    <form method="post" action="${P.remove(flowId)}">${csrfField(model.csrf)}<p class="hint" id="delete-flow-hint">${t.deleteFlowHint}</p>
      <button type="submit" class="secondary" id="delete-flow-button" aria-describedby="delete-flow-hint">${t.deleteFlow}</button></form></section>`;
}
