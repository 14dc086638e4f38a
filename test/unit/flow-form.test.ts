import {
  applyEditorAction,
  editorAction,
  parseFlowForm,
  parseSecretForm,
  readFlowForm,
  valuesFromDefinition,
  type FlowFormValues,
} from '../../web/flows/form.ts';
import { SIGN_IN_FLOW } from '../../fixtures/flow-pages.ts';

/** The form body a browser posts for these values (rows as `steps/<n>/<field>`, empty fields included). */
function bodyOf(values: FlowFormValues, extra: Array<[string, string]> = []): URLSearchParams {
  const body = new URLSearchParams([
    ['_csrf', 'x'],
    ['name', values.name],
    ['form_factor', values.formFactor],
  ]);
  values.steps.forEach((row, i) => {
    for (const [field, value] of Object.entries(row)) body.append(`steps/${i}/${field}`, value);
  });
  for (const [k, v] of extra) body.append(k, v);
  return body;
}

const form = (steps: Array<Record<string, string>>, name = 'Checkout', formFactor = 'mobile') =>
  new URLSearchParams([
    ['name', name],
    ['form_factor', formFactor],
    ...steps.flatMap((step, i) => Object.entries(step).map(([k, v]) => [`steps/${i}/${k}`, v] as [string, string])),
  ]);

describe('parseFlowForm', () => {
  it('reads a stored definition back from the form the editor shows for it', () => {
    const { definition, errors } = parseFlowForm(bodyOf(valuesFromDefinition(SIGN_IN_FLOW)));
    expect(errors).toEqual({});
    expect(definition).toEqual(SIGN_IN_FLOW);
  });

  it('reads an address without a scheme as https, normalised, and leaves an empty optional name out', () => {
    const { definition } = parseFlowForm(form([{ type: 'navigate', url: 'Shop.Example/cart', name: ' ' }]));
    expect(definition).toEqual({
      name: 'Checkout',
      form_factor: 'mobile',
      steps: [{ type: 'navigate', url: 'https://shop.example/cart' }],
    });
  });

  it('keeps typed text as it stands and a secret with its origin', () => {
    const { definition, errors } = parseFlowForm(
      form([
        { type: 'navigate', url: 'https://shop.example/' },
        { type: 'type', selector: ' #q ', text: '  two words ' },
        { type: 'type', selector: '#pw', secret: 'shop_pw', secret_origin: 'https://login.example' },
        { type: 'select', selector: 'select#size', value: '42' },
      ]),
    );
    expect(errors).toEqual({});
    expect(definition!.steps.slice(1)).toEqual([
      { type: 'type', selector: '#q', text: '  two words ' },
      { type: 'type', selector: '#pw', secret: 'shop_pw', secret_origin: 'https://login.example' },
      { type: 'select', selector: 'select#size', value: '42' },
    ]);
  });

  it('puts each error beside its field, named like the API pointers, and returns no definition', () => {
    const { definition, errors } = parseFlowForm(
      form(
        [
          { type: 'click', selector: '' },
          { type: 'navigate', url: 'not a url' },
          { type: 'type', selector: '#a', text: 'x', secret: 'pw' },
          { type: 'type', selector: '#b' },
          { type: 'type', selector: '#c', secret: 'bad name!', secret_origin: 'https://x.example/path' },
          { type: 'start_timespan', name: '' },
          { type: 'teleport' },
          { type: 'type', selector: '#d', text: 'y', secret_origin: 'https://x.example' },
        ],
        '',
        'tablet',
      ),
    );
    expect(definition).toBeNull();
    expect(errors).toEqual({
      name: { code: 'required' },
      form_factor: { code: 'form_factor' },
      'steps/0/type': { code: 'first_navigate' },
      'steps/0/selector': { code: 'required' },
      'steps/1/url': { code: 'url' },
      'steps/2/secret': { code: 'text_and_secret' },
      'steps/3/text': { code: 'text_or_secret' },
      'steps/4/secret': { code: 'secret_name' },
      'steps/4/secret_origin': { code: 'secret_origin' },
      'steps/5/name': { code: 'required' },
      'steps/6/type': { code: 'step_type' },
      'steps/7/secret_origin': { code: 'secret_origin' },
    });
  });

  it('asks for a step when there is none, and for shorter values with the limit', () => {
    expect(parseFlowForm(form([])).errors).toEqual({ steps: { code: 'no_steps' } });
    // The API's limit (core/flows/definition.ts), so a flow saved in the browser reads back through the API.
    const long = parseFlowForm(form([{ type: 'navigate', url: 'https://a.example/' }], 'n'.repeat(121)));
    expect(long.errors).toEqual({ name: { code: 'too_long', limit: 120 } });
  });

  it('refuses more rows than any plan allows as a whole, not row by row', () => {
    const rows = Array.from({ length: 201 }, () => ({ type: 'wait_for_navigation' }));
    expect(parseFlowForm(form(rows)).errors.steps).toEqual({ code: 'too_many_steps', limit: 200 });
  });

  it('orders rows by their numbers and renumbers them from 0 (a removed row leaves a gap)', () => {
    const body = new URLSearchParams([
      ['steps/10/type', 'click'],
      ['steps/10/selector', '#second'],
      ['steps/2/type', 'navigate'],
      ['steps/2/url', 'https://a.example/'],
      ['steps/x/type', 'click'],
    ]);
    expect(readFlowForm(body).steps.map((row) => [row.type, row.url || row.selector])).toEqual([
      ['navigate', 'https://a.example/'],
      ['click', '#second'],
    ]);
  });
});

describe('the editor buttons', () => {
  const values = valuesFromDefinition(SIGN_IN_FLOW);

  it('adds a row of the chosen type at the end, removes the row named, and saves by default', () => {
    const add = editorAction(
      new URLSearchParams([
        ['_action', 'add'],
        ['new_step_type', 'snapshot'],
      ]),
    );
    expect(add).toEqual({ kind: 'add', type: 'snapshot' });
    const added = applyEditorAction(values, add);
    expect(added.steps).toHaveLength(values.steps.length + 1);
    expect(added.steps.at(-1)!.type).toBe('snapshot');

    const remove = editorAction(new URLSearchParams([['_action', 'remove/2']]));
    expect(remove).toEqual({ kind: 'remove', index: 2 });
    const removed = applyEditorAction(values, remove);
    expect(removed.steps.map((r) => r.selector)).not.toContain('#email');
    expect(removed.steps).toHaveLength(values.steps.length - 1);

    expect(editorAction(new URLSearchParams())).toEqual({ kind: 'save' });
    expect(editorAction(new URLSearchParams([['_action', 'remove/x']]))).toEqual({ kind: 'save' });
    expect(editorAction(new URLSearchParams([['_action', 'refresh']]))).toEqual({ kind: 'refresh' });
    expect(
      editorAction(
        new URLSearchParams([
          ['_action', 'add'],
          ['new_step_type', 'rm -rf'],
        ]),
      ),
    ).toEqual({
      kind: 'add',
      type: 'click',
    });
  });
});

describe('parseSecretForm', () => {
  const secretBody = (name: string, kind: string, value: string) =>
    new URLSearchParams([
      ['secret_name', name],
      ['secret_kind', kind],
      ['secret_value', value],
    ]);

  it('takes a password as typed and a TOTP seed without its spaces, upper-cased', () => {
    expect(parseSecretForm(secretBody('pw', 'password', ' p a ss ')).secret).toEqual({
      name: 'pw',
      kind: 'password',
      value: ' p a ss ',
    });
    expect(parseSecretForm(secretBody('otp', 'totp', 'jbsw y3dp ehpk 3pxp')).secret).toEqual({
      name: 'otp',
      kind: 'totp',
      value: 'JBSWY3DPEHPK3PXP',
    });
  });

  it('names each error by field and keeps only the name and kind to show again', () => {
    const parsed = parseSecretForm(secretBody('no spaces please', 'sms', ''));
    expect(parsed.secret).toBeNull();
    expect(parsed.errors).toEqual({
      secret_name: { code: 'secret_name' },
      secret_kind: { code: 'secret_kind' },
      secret_value: { code: 'required' },
    });
    expect(parsed.values).toEqual({ name: 'no spaces please', kind: 'sms' });
    expect(parseSecretForm(secretBody('otp', 'totp', 'not-base32-189')).errors).toEqual({
      secret_value: { code: 'totp_seed' },
    });
  });
});
