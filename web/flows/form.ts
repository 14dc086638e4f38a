import {
  FLOW_STEP_TYPES,
  type FlowDefinition,
  type FlowSecretKind,
  type FlowStep,
  type FlowStepType,
} from '../../core/flows/flow.ts';
import {
  MAX_FLOW_NAME_CHARS,
  MAX_SECRET_CHARS,
  MAX_SELECTOR_CHARS,
  MAX_TEXT_CHARS,
  SECRET_NAME_PATTERN,
} from '../../core/flows/definition.ts';
import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import { normaliseScanUrl, withDefaultScheme } from '../../core/url.ts';
import type { FlowFormErrors } from './model.ts';

/**
 * The flow editor's form (web/flows/editor-page.ts) read into a FlowDefinition: what each field must hold to
 * make a well-typed step. Rules that need the account or the store (the plan's steps, secrets that exist) are
 * the service's; their errors come back keyed the same way (`steps/3/selector`).
 *
 * Fields: `name`, `form_factor`, and per step `steps/<n>/<field>` with the fields of STEP_FIELDS; `_action`
 * is the button pressed (`save`, `add` with `new_step_type`, `remove/<n>`, `refresh`).
 */

export type StepField = 'url' | 'name' | 'selector' | 'text' | 'secret' | 'secret_origin' | 'value';

/** The inputs a step of each type has, in the order the editor shows them. */
export const STEP_FIELDS: Record<FlowStepType, readonly StepField[]> = {
  navigate: ['url', 'name'],
  start_timespan: ['name'],
  end_timespan: [],
  snapshot: ['name'],
  click: ['selector'],
  type: ['selector', 'text', 'secret', 'secret_origin'],
  select: ['selector', 'value'],
  wait_for_selector: ['selector'],
  wait_for_navigation: [],
};

// The API's limits (core/flows/definition.ts), so a flow saved here reads back through the API unchanged.
export const FLOW_NAME_MAX = MAX_FLOW_NAME_CHARS;
export const STEP_NAME_MAX = MAX_FLOW_NAME_CHARS;
export const SELECTOR_MAX = MAX_SELECTOR_CHARS;
export const TEXT_MAX = MAX_TEXT_CHARS;
/** More rows than any plan's steps; beyond it the form is refused as a whole, not row by row. */
export const FORM_STEPS_MAX = 200;
/** A secret's name as the API takes it (lower-case letters, digits, `_`), so it reads the same in a step, a form and an error pointer. */
export const SECRET_NAME = new RegExp(SECRET_NAME_PATTERN);

/** One row as typed: every value a string, whatever the type. */
export interface StepRow {
  type: string;
  url: string;
  name: string;
  selector: string;
  text: string;
  secret: string;
  secret_origin: string;
  value: string;
}

/** The form as typed, to render again with its errors. */
export interface FlowFormValues {
  name: string;
  formFactor: string;
  steps: StepRow[];
}

export type EditorAction =
  { kind: 'save' } | { kind: 'refresh' } | { kind: 'add'; type: FlowStepType } | { kind: 'remove'; index: number };

export const emptyRow = (type: string): StepRow => ({
  type,
  url: '',
  name: '',
  selector: '',
  text: '',
  secret: '',
  secret_origin: '',
  value: '',
});

const isStepType = (value: string): value is FlowStepType => (FLOW_STEP_TYPES as readonly string[]).includes(value);
const ROW_FIELD = /^steps\/(\d{1,4})\/(type|url|name|selector|text|secret|secret_origin|value)$/;

/** The rows of the form in the order of their numbers, renumbered from 0 (a removed row leaves a gap). */
export function readFlowForm(body: URLSearchParams): FlowFormValues {
  const rows = new Map<number, StepRow>();
  for (const [key, value] of body) {
    const match = ROW_FIELD.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const row = rows.get(index) ?? emptyRow('');
    row[match[2] as keyof StepRow] = value;
    rows.set(index, row);
  }
  return {
    name: body.get('name') ?? '',
    formFactor: body.get('form_factor') ?? '',
    steps: [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row),
  };
}

/** The button pressed; anything unknown is a save (Enter in a text field presses the form's first button). */
export function editorAction(body: URLSearchParams): EditorAction {
  const action = body.get('_action') ?? 'save';
  if (action === 'refresh') return { kind: 'refresh' };
  if (action === 'add') {
    const type = body.get('new_step_type') ?? '';
    return { kind: 'add', type: isStepType(type) ? type : 'click' };
  }
  const remove = /^remove\/(\d{1,4})$/.exec(action);
  return remove ? { kind: 'remove', index: Number(remove[1]) } : { kind: 'save' };
}

/** The form after an add or remove: the rows the editor shows next (a save or refresh changes nothing). */
export function applyEditorAction(values: FlowFormValues, action: EditorAction): FlowFormValues {
  if (action.kind === 'add') return { ...values, steps: [...values.steps, emptyRow(action.type)] };
  if (action.kind === 'remove') return { ...values, steps: values.steps.filter((_, i) => i !== action.index) };
  return values;
}

/** A stored definition as the form shows it, to edit. */
export function valuesFromDefinition(definition: FlowDefinition): FlowFormValues {
  return {
    name: definition.name,
    formFactor: definition.form_factor,
    steps: definition.steps.map((step) => {
      const row = emptyRow(step.type);
      for (const [key, value] of Object.entries(step)) if (key !== 'type') row[key as StepField] = String(value);
      return row;
    }),
  };
}

/** The origin of an `http(s)://host[:port]` exactly as typed (no path), or null. */
function asOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.origin === text.replace(/\/$/, '').toLowerCase() ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The posted form as a definition, or null with the errors by field. Values are trimmed except typed text
 * (spaces may matter in it); a URL without a scheme is read as https, as in the add-target form.
 */
export function parseFlowForm(body: URLSearchParams): {
  definition: FlowDefinition | null;
  errors: FlowFormErrors;
  values: FlowFormValues;
} {
  const values = readFlowForm(body);
  const errors: FlowFormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = { code: 'required' };
  else if (name.length > FLOW_NAME_MAX) errors.name = { code: 'too_long', limit: FLOW_NAME_MAX };
  const formFactor = (FORM_FACTORS as readonly string[]).includes(values.formFactor)
    ? (values.formFactor as FormFactor)
    : null;
  if (!formFactor) errors.form_factor = { code: 'form_factor' };
  if (values.steps.length === 0) errors.steps = { code: 'no_steps' };
  if (values.steps.length > FORM_STEPS_MAX) {
    errors.steps = { code: 'too_many_steps', limit: FORM_STEPS_MAX };
    return { definition: null, errors, values };
  }
  const steps = values.steps.map((row, index) => parseStep(row, `steps/${index}`, errors));
  const first = values.steps[0];
  if (first && first.type !== 'navigate' && !errors['steps/0/type'])
    errors['steps/0/type'] = { code: 'first_navigate' };
  if (Object.keys(errors).length || !formFactor) return { definition: null, errors, values };
  return { definition: { name, form_factor: formFactor, steps: steps as FlowStep[] }, errors, values };
}

function parseStep(row: StepRow, at: string, errors: FlowFormErrors): FlowStep | null {
  const required = (field: StepField, max: number, keepSpaces = false): string => {
    const value = keepSpaces ? row[field] : row[field].trim();
    if (!value.trim()) errors[`${at}/${field}`] = { code: 'required' };
    else if (value.length > max) errors[`${at}/${field}`] = { code: 'too_long', limit: max };
    return value;
  };
  const optionalName = (): string | undefined => {
    const value = row.name.trim();
    if (value.length > STEP_NAME_MAX) errors[`${at}/name`] = { code: 'too_long', limit: STEP_NAME_MAX };
    return value || undefined;
  };
  const type = row.type;
  if (!isStepType(type)) {
    errors[`${at}/type`] = { code: 'step_type' };
    return null;
  }
  switch (type) {
    case 'navigate': {
      const typed = row.url.trim();
      let url = typed;
      if (!typed) errors[`${at}/url`] = { code: 'required' };
      else {
        const normalised = normaliseScanUrl(withDefaultScheme(typed));
        if (normalised.ok) url = normalised.url;
        else errors[`${at}/url`] = { code: 'url' };
      }
      const name = optionalName();
      return name ? { type, url, name } : { type, url };
    }
    case 'start_timespan':
    case 'snapshot':
      return { type, name: required('name', STEP_NAME_MAX) };
    case 'end_timespan':
    case 'wait_for_navigation':
      return { type };
    case 'click':
    case 'wait_for_selector':
      return { type, selector: required('selector', SELECTOR_MAX) };
    case 'select':
      return { type, selector: required('selector', SELECTOR_MAX), value: required('value', TEXT_MAX, true) };
    case 'type':
      return typeStep(row, at, errors, required('selector', SELECTOR_MAX));
  }
}

/** A `type` step types either literal text or a named secret (on the start origin, or the one given). */
function typeStep(row: StepRow, at: string, errors: FlowFormErrors, selector: string): FlowStep {
  const secret = row.secret.trim();
  const origin = row.secret_origin.trim();
  if (secret && row.text) {
    errors[`${at}/secret`] = { code: 'text_and_secret' };
    return { type: 'type', selector, text: row.text };
  }
  if (!secret) {
    if (!row.text) errors[`${at}/text`] = { code: 'text_or_secret' };
    else if (row.text.length > TEXT_MAX) errors[`${at}/text`] = { code: 'too_long', limit: TEXT_MAX };
    if (origin) errors[`${at}/secret_origin`] = { code: 'secret_origin' };
    return { type: 'type', selector, text: row.text };
  }
  if (!SECRET_NAME.test(secret)) errors[`${at}/secret`] = { code: 'secret_name' };
  if (!origin) return { type: 'type', selector, secret };
  const secretOrigin = asOrigin(origin);
  if (!secretOrigin) errors[`${at}/secret_origin`] = { code: 'secret_origin' };
  return { type: 'type', selector, secret, secret_origin: secretOrigin ?? origin };
}

export const SECRET_VALUE_MAX = MAX_SECRET_CHARS;
const SECRET_KINDS: readonly FlowSecretKind[] = ['password', 'totp'];

/**
 * The secrets form: a name, its kind and the value. The value is never put back into a page: with errors the
 * form comes back empty but for the name and kind. A TOTP seed is base32 (spaces allowed, as apps show it).
 */
export function parseSecretForm(body: URLSearchParams): {
  secret: { name: string; kind: FlowSecretKind; value: string } | null;
  errors: FlowFormErrors;
  values: { name: string; kind: string };
} {
  const name = (body.get('secret_name') ?? '').trim();
  const kind = body.get('secret_kind') ?? '';
  const value = body.get('secret_value') ?? '';
  const errors: FlowFormErrors = {};
  if (!name) errors.secret_name = { code: 'required' };
  else if (!SECRET_NAME.test(name)) errors.secret_name = { code: 'secret_name' };
  const known = SECRET_KINDS.find((k) => k === kind);
  if (!known) errors.secret_kind = { code: 'secret_kind' };
  if (!value) errors.secret_value = { code: 'required' };
  else if (value.length > SECRET_VALUE_MAX) errors.secret_value = { code: 'too_long', limit: SECRET_VALUE_MAX };
  else if (known === 'totp' && !/^[A-Z2-7]+=*$/i.test(value.replace(/\s+/g, '')))
    errors.secret_value = { code: 'totp_seed' };
  const values = { name, kind };
  if (Object.keys(errors).length || !known) return { secret: null, errors, values };
  return {
    secret: { name, kind: known, value: known === 'totp' ? value.replace(/\s+/g, '').toUpperCase() : value },
    errors,
    values,
  };
}
