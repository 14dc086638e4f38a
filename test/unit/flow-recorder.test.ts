import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { importRecording, RecordingInvalid } from '../../core/flows/recorder.ts';

const fixture = (): unknown =>
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/unit/fixtures/recorder-shop-checkout.json'), 'utf8'));

describe('a Chrome DevTools Recorder export', () => {
  it('becomes flow steps: CSS first, secrets for password and code fields, Enter as the submit click, navigations waited for', () => {
    const imported = importRecording(fixture());
    expect(imported.title).toBe('Shop: sign in, search, add to cart');
    expect(imported.steps).toEqual([
      { type: 'navigate', url: 'https://shop.example.com/' },
      // The CSS alternative counts positions: the ARIA one is kept instead.
      { type: 'click', selector: 'aria/Sign in' },
      { type: 'wait_for_navigation' },
      { type: 'click', selector: '#email' },
      { type: 'type', selector: '#email', text: 'ann@example.com' },
      { type: 'type', selector: '#password', secret: 'password' },
      { type: 'type', selector: '#otp-code', secret: 'totp' },
      { type: 'click', selector: 'form > button' },
      { type: 'wait_for_navigation' },
      { type: 'type', selector: '#q', text: 'blue mug' },
      { type: 'click', selector: 'form:has(#q) [type="submit"]' },
      { type: 'wait_for_navigation' },
      { type: 'wait_for_selector', selector: '#results > li' },
      { type: 'select', selector: 'form.product select#size', value: 'L' },
      // Through a shadow root, in Puppeteer's own form.
      { type: 'click', selector: 'my-cart-button >>>> ::-p-aria(Add to cart)' },
    ]);
    expect(imported.secrets).toEqual([
      { name: 'password', kind: 'password' },
      { name: 'totp', kind: 'totp' },
    ]);
  });

  it('never keeps a secret field’s recorded value', () => {
    const imported = importRecording(fixture());
    const everything = JSON.stringify(imported);
    expect(everything).not.toContain('correct horse battery staple');
    expect(everything).not.toContain('492817');
  });

  it('says what it changed or left out, step by step', () => {
    const { warnings } = importRecording(fixture());
    expect(warnings).toEqual([
      "Step 1 (setViewport) was left out: the flow's form factor sets the viewport.",
      'Step 6 (change) types the secret "password" (password) instead of the recorded value, which was not kept; set it before running the flow.',
      'Step 7 (keyDown) was left out: flows do not press keys (Tab).',
      'Step 9 (change) types the secret "totp" (totp) instead of the recorded value, which was not kept; set it before running the flow.',
      'Step 11 (scroll) was left out: flows have no such step.',
      'Step 12 (hover) was left out: flows have no such step.',
      "Step 14 (keyDown) pressing Enter became a click on the form's submit button.",
      'Step 16 (waitForElement) waits for the element to be there; its count, visibility and attributes are not checked.',
      'Step 18 (doubleClick) is clicked once: flows have no double click.',
      'Step 19 (waitForExpression) was left out: flows have no such step.',
      'Step 20 (click) was left out: it acts in another tab or frame, which flows do not follow.',
      'Step 21 (navigate) was left out: The url must start with http:// or https://.',
    ]);
  });

  it('Enter without a field typed into just before is left out', () => {
    const imported = importRecording({
      title: 'x',
      steps: [
        { type: 'navigate', url: 'https://example.com/' },
        { type: 'keyDown', key: 'Enter' },
        { type: 'keyUp', key: 'Enter', assertedEvents: [{ type: 'navigation' }] },
      ],
    });
    expect(imported.steps).toEqual([{ type: 'navigate', url: 'https://example.com/' }]);
    expect(imported.warnings).toEqual([
      'Step 2 (keyDown) was left out: flows do not press keys (Enter), and no form field precedes it.',
    ]);
  });

  it('Enter in the password field sends its form, as most sign-ins are sent', () => {
    const imported = importRecording({
      title: 'x',
      steps: [
        { type: 'navigate', url: 'https://example.com/login' },
        { type: 'change', value: 'hunter2-hunter2', selectors: [['aria/Password'], ['#password']] },
        { type: 'keyDown', key: 'Enter', assertedEvents: [{ type: 'navigation' }] },
        { type: 'keyUp', key: 'Enter' },
      ],
    });
    expect(imported.steps).toEqual([
      { type: 'navigate', url: 'https://example.com/login' },
      { type: 'type', selector: '#password', secret: 'password' },
      { type: 'click', selector: 'form:has(#password) [type="submit"]' },
      { type: 'wait_for_navigation' },
    ]);
    expect(JSON.stringify(imported)).not.toContain('hunter2-hunter2');
  });

  it('is refused when it is not a recording', () => {
    expect(() => importRecording({ steps: [] })).toThrow(RecordingInvalid);
    expect(() => importRecording({ title: 't', steps: [{ type: 'click' }] })).toThrow(RecordingInvalid);
    expect(() => importRecording('nope')).toThrow(RecordingInvalid);
  });
});
