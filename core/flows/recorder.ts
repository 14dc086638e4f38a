/**
 * Chrome DevTools Recorder exports (the JSON of "Export → JSON") as flow steps. Pure: parsed with
 * `@puppeteer/replay`'s own `parse`, so whatever the Recorder writes and that library accepts is read the same
 * way. The rules (docs/flows.md#importing-a-recorder-export):
 *
 * - `navigate` → `navigate` (the URL normalised like a scan's; invalid ones are left out with a warning);
 * - `click`, `doubleClick` → `click` (a double click is clicked once, with a warning);
 * - `change` → `type`, or `select` when the best selector names a `<select>` element; a field whose selectors
 *   mention a password or a one-time code gets a secret reference instead of the recorded value, which is
 *   never kept (see SECRET_FIELDS);
 * - Enter pressed (`keyDown` Enter) right after typing into a field → a click on its form's submit button
 *   (`form:has(<field>) [type="submit"]`), when the field's selector is plain CSS; otherwise left out with a warning;
 *   other keys are left out with a warning;
 * - `waitForElement` → `wait_for_selector` (presence only: count, visibility and attributes are not checked);
 * - a step whose `assertedEvents` hold a navigation is followed by `wait_for_navigation`;
 * - `setViewport` (the flow's form factor sets it), `scroll`, `hover`, `waitForExpression`,
 *   `emulateNetworkConditions`, `close`, `customStep`, and steps in another frame or tab are left out with a warning.
 *
 * Selectors: of the alternatives the Recorder offers, a plain CSS selector first, then ARIA (`aria/Name`), text
 * (`text/…`), piercing CSS (`pierce/…`), then selectors through shadow roots (written as Puppeteer's
 * `host >>>> part` form), XPath (`xpath/…`) last; a CSS selector that counts positions (`:nth-child`,
 * `:nth-of-type`) ranks after ARIA and text, since it breaks as soon as the page gains an element. All of these
 * are selector strings Puppeteer accepts as they are.
 */
import { parse, selectorToPElementSelector } from '@puppeteer/replay';
import type { FlowSecretKind, FlowStep } from './flow.ts';
import { normaliseScanUrl } from '../url.ts';

export interface RecorderImport {
  /** The recording's title, for the flow's name when none is given. */
  title: string;
  steps: FlowStep[];
  /** One line per recorded step that was changed or left out, naming the step by its 1-based position. */
  warnings: string[];
  /** The secrets the steps now refer to; each must be set (PUT /flows/{id}/secrets/{name}) before a run. */
  secrets: Array<{ name: string; kind: FlowSecretKind }>;
}

export class RecordingInvalid extends Error {
  override name = 'RecordingInvalid';
}

/**
 * Fields whose recorded value is a secret: the value is replaced by a reference to a secret of this name and
 * kind. The Recorder does not record an input's type, so the selectors are all there is to go by.
 */
export const SECRET_FIELDS: ReadonlyArray<{ pattern: RegExp; name: string; kind: FlowSecretKind }> = [
  { pattern: /one[-_ ]?time|otp|totp|2fa|mfa|verification[-_ ]?code|auth[-_ ]?code/i, name: 'totp', kind: 'totp' },
  { pattern: /pass(word|wd|code)?\b|pwd|passwort|kennwort|\bpin\b/i, name: 'password', kind: 'password' },
];

/** Longest selector kept; longer ones (generated paths) are not worth running. */
export const MAX_SELECTOR_LENGTH = 1000;

type RecordedSelector = string | string[];
interface RecordedStep {
  type: string;
  selectors?: RecordedSelector[];
  url?: string;
  value?: string;
  key?: string;
  target?: string;
  frame?: number[];
  assertedEvents?: Array<{ type: string }>;
  visible?: boolean;
  count?: number;
  attributes?: unknown;
  properties?: unknown;
}

const NO_SELECTOR = 'it has no selector that can be used';

export function importRecording(recording: unknown): RecorderImport {
  let flow: { title: string; steps: RecordedStep[] };
  try {
    flow = parse(recording) as unknown as { title: string; steps: RecordedStep[] };
  } catch (error) {
    throw new RecordingInvalid(
      `This is not a Chrome DevTools Recorder export (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const steps: FlowStep[] = [];
  const warnings: string[] = [];
  const secrets = new Map<string, FlowSecretKind>();
  const warn = (position: number, step: RecordedStep, text: string) =>
    warnings.push(`Step ${position} (${step.type}) ${text}`);
  let lastTyped: { selector: string } | null = null;
  let enterPressed = false;

  flow.steps.forEach((step, i) => {
    const position = i + 1;
    const navigates = (step.assertedEvents ?? []).some((event) => event.type === 'navigation');
    const typedBefore = lastTyped;
    lastTyped = null;
    if ((step.target && step.target !== 'main') || (step.frame && step.frame.length > 0)) {
      warn(position, step, 'was left out: it acts in another tab or frame, which flows do not follow.');
      return;
    }
    switch (step.type) {
      case 'navigate': {
        const normalised = normaliseScanUrl(step.url ?? '');
        if (!normalised.ok) {
          warn(position, step, `was left out: ${normalised.error}`);
          return;
        }
        steps.push({ type: 'navigate', url: normalised.url });
        return; // a navigate step waits for its own load
      }
      case 'click':
      case 'doubleClick': {
        const selector = bestSelector(step.selectors);
        if (!selector) return warn(position, step, `was left out: ${NO_SELECTOR}.`);
        steps.push({ type: 'click', selector });
        if (step.type === 'doubleClick') warn(position, step, 'is clicked once: flows have no double click.');
        break;
      }
      case 'change': {
        const selector = bestSelector(step.selectors);
        if (!selector) return warn(position, step, `was left out: ${NO_SELECTOR}.`);
        const secret = secretField(step.selectors ?? []);
        if (secret) {
          secrets.set(secret.name, secret.kind);
          steps.push({ type: 'type', selector, secret: secret.name });
          lastTyped = { selector }; // Enter in a password field is how most sign-ins are sent
          warn(
            position,
            step,
            `types the secret "${secret.name}" (${secret.kind}) instead of the recorded value, which was not kept; set it before running the flow.`,
          );
        } else if (namesSelectElement(selector)) {
          steps.push({ type: 'select', selector, value: step.value ?? '' });
        } else {
          steps.push({ type: 'type', selector, text: step.value ?? '' });
          lastTyped = { selector };
        }
        break;
      }
      case 'keyDown': {
        if (step.key !== 'Enter') return warn(position, step, `was left out: flows do not press keys (${step.key}).`);
        enterPressed = true;
        if (typedBefore && isPlainCss(typedBefore.selector)) {
          steps.push({ type: 'click', selector: `form:has(${typedBefore.selector}) [type="submit"]` });
          warn(position, step, "pressing Enter became a click on the form's submit button.");
        } else {
          enterPressed = false;
          return warn(position, step, 'was left out: flows do not press keys (Enter), and no form field precedes it.');
        }
        break;
      }
      case 'keyUp': {
        // The release of a key already handled (or dropped) with its keyDown: only its navigation matters.
        if (step.key === 'Enter' && enterPressed) {
          enterPressed = false;
          break;
        }
        return;
      }
      case 'waitForElement': {
        const selector = bestSelector(step.selectors);
        if (!selector) return warn(position, step, `was left out: ${NO_SELECTOR}.`);
        steps.push({ type: 'wait_for_selector', selector });
        if (step.count !== undefined || step.visible === false || step.attributes || step.properties)
          warn(
            position,
            step,
            'waits for the element to be there; its count, visibility and attributes are not checked.',
          );
        break;
      }
      case 'setViewport':
        return warn(position, step, "was left out: the flow's form factor sets the viewport.");
      default:
        return warn(position, step, 'was left out: flows have no such step.');
    }
    if (navigates && steps[steps.length - 1]?.type !== 'wait_for_navigation')
      steps.push({ type: 'wait_for_navigation' });
  });

  return { title: flow.title, steps, warnings, secrets: [...secrets].map(([name, kind]) => ({ name, kind })) };
}

type Rank = number;
/** The alternatives' ranks (lower is better); see the module comment. */
function rankOf(selector: RecordedSelector): Rank {
  const parts = typeof selector === 'string' ? [selector] : selector;
  const last = parts[parts.length - 1] ?? '';
  if (parts.length > 1) return /^xpath\//.test(last) ? 7 : 5;
  if (last.startsWith('aria/')) return 1;
  if (last.startsWith('text/')) return 2;
  if (last.startsWith('pierce/')) return 4;
  if (last.startsWith('xpath/')) return 6;
  return /:nth-(child|of-type|last-child|last-of-type)\(/.test(last) ? 3 : 0;
}

function bestSelector(selectors: RecordedSelector[] | undefined): string | null {
  const usable = (selectors ?? [])
    .filter((s) => (typeof s === 'string' ? s.trim() !== '' : s.length > 0 && s.every((p) => p.trim() !== '')))
    .map((s, order) => ({ s, order, rank: rankOf(s) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order);
  for (const { s } of usable) {
    const text = typeof s === 'string' ? s : s.length === 1 ? s[0]! : selectorToPElementSelector(s);
    if (text.length <= MAX_SELECTOR_LENGTH) return text;
  }
  return null;
}

function secretField(selectors: RecordedSelector[]): { name: string; kind: FlowSecretKind } | null {
  const text = selectors.flat().join(' ');
  return SECRET_FIELDS.find((field) => field.pattern.test(text)) ?? null;
}

const isPlainCss = (selector: string) => [0, 3].includes(rankOf(selector)) && !selector.includes('>>>');
/** A CSS selector that names the `select` element (`select#country`, `form select[name=size]`). */
const namesSelectElement = (selector: string) =>
  isPlainCss(selector) && /(^|[\s>+~])select([.#[:]|$)/i.test(selector.trim());
