import { scrubFlowSecrets } from '../../core/flows/secret-scrub.ts';
import { containsSecret, redactSecrets, REDACTED, SecretSet } from '../../core/redaction.ts';
import { credentialSecrets } from '../../core/scan/credentials.ts';
import { ENCODINGS, formsIn, secretRunForms } from '../harness/secret-forms.ts';

/**
 * The redaction rule (core/redaction.ts) against forms made by the platform's own encoders
 * (test/harness/secret-forms.ts): every encoding, mixed, truncated as Lighthouse cuts snippets, nested once.
 */
const SECRETS = [
  `Zebra Quartz & <Mango> "77" 'x'!`,
  'Grüße naïve ☃ 🙂 & co',
  'Zebra Quartz Mango 77!',
  'tab\there / back\\slash',
];

describe.each(SECRETS)('the secret %j', (secret) => {
  const set = new SecretSet([secret]);
  const forms = secretRunForms([secret]);

  it.each(Object.keys(ENCODINGS))('is redacted whole when written %s', (encoding) => {
    const written = ENCODINGS[encoding]!(secret);
    const text = `before ${written} after`;
    expect(set.redact(text)).toBe(`before ${REDACTED} after`);
    expect(formsIn(set.redact(text), forms)).toEqual([]);
  });

  it.each(Object.keys(ENCODINGS))('leaves no run of 12 of its characters when written %s and cut short', (encoding) => {
    const written = ENCODINGS[encoding]!(secret);
    // Lighthouse cuts a snippet or label at about 75 characters and adds an ellipsis, wherever that falls.
    for (const cut of [12, 20, 40, 75])
      if (cut < written.length) {
        const text = `<img src="/p?t=${written.slice(0, cut)}…`;
        expect({ cut, left: formsIn(set.redact(text), forms) }).toEqual({ cut, left: [] });
      }
  });

  it('is redacted in a page that writes it several ways at once', () => {
    const page = [
      `<img src="/px?t=${ENCODINGS.form!(secret)}&amp;u=${ENCODINGS.percentLower!(secret)}">`,
      `<p title="${ENCODINGS.htmlNamed!(secret)}">${ENCODINGS.htmlDecimal!(secret)}</p>`,
      `<script type="application/json">{"t":"${ENCODINGS.jsonInHtml!(secret)}"}</script>`,
      `${ENCODINGS.htmlHex!(secret).replace(/;/g, '')}`, // numeric references without their semicolons
      encodeURIComponent(ENCODINGS.htmlNamed!(secret)), // HTML-escaped, then form-encoded
    ].join('\n');
    const redacted = set.redact(page);
    expect(formsIn(redacted, forms)).toEqual([]);
    expect(redacted.split(REDACTED).length - 1).toBe(7);
    expect(redacted).toContain('<img src="/px?t=');
  });
});

it('redacts runs of 12 or more characters and leaves shorter ones, which are not the secret', () => {
  const set = new SecretSet(['Zebra Quartz Mango 77!']);
  expect(set.redact('Zebra Quart Mango')).toBe('Zebra Quart Mango');
  expect(set.redact('q=Zebra+Quartz…')).toBe(`q=${REDACTED}…`);
  expect(set.redact('x=tz+Mango+77%21')).toBe(`x=${REDACTED}`);
});

it('redacts a secret shorter than 12 characters only whole', () => {
  const set = new SecretSet(['p&ss w0rd']);
  expect(set.redact('a=p%26ss+w0rd&b=p&amp;ss w0rd&c=p&ss w')).toBe(`a=${REDACTED}&b=${REDACTED}&c=p&ss w`);
});

it('redacts object keys and every string of a JSON value, and says whether any is left', () => {
  const set = new SecretSet(['Zebra Quartz Mango 77!']);
  const value = { 'Zebra+Quartz+Mango+77%21': ['Zebra Quartz Mango 77&#33;', 1, null], n: 2 };
  expect(containsSecret(value, set)).toBe(true);
  const redacted = redactSecrets(value, set);
  expect(redacted).toEqual({ [REDACTED]: [REDACTED, 1, null], n: 2 });
  expect(containsSecret(redacted, set)).toBe(false);
  expect(containsSecret({ a: 'Zebra Quartz' }, new SecretSet([]))).toBe(false);
});

it("covers a scan's password, its basic auth token and a header value, not the user name", () => {
  const basic = credentialSecrets({ type: 'basic', username: 'scan-user', password: 'Zebra Quartz & <M>!' });
  const token = Buffer.from('scan-user:Zebra Quartz & <M>!').toString('base64');
  expect(basic.redact(`scan-user ${token.slice(0, 20)} Zebra+Quartz+%26+%3CM%3E%21`)).toBe(
    `scan-user ${REDACTED} ${REDACTED}`,
  );
  const header = credentialSecrets({ type: 'header', header_name: 'X-Key', header_value: `k3y 'value' & more!` });
  expect(header.redact('X-Key=k3y+%27value%27+%26+more%21')).toBe(`X-Key=${REDACTED}`);
});

it('redacts a flow password typed into a GET form, as the browser encodes it', () => {
  const secrets = { shop: { kind: 'password' as const, value: 'Zebra Quartz Mango 77!' } };
  const step = { url: 'http://shop.example/search?q=Zebra+Quartz+Mango+77%21', name: 'Results' };
  expect(scrubFlowSecrets(step, secrets)).toEqual({ url: `http://shop.example/search?q=${REDACTED}`, name: 'Results' });
});

it('leaves image bytes in base64 data URLs alone, and redacts a data URL that is text', () => {
  const set = new SecretSet(['AAAAAAAAAAAAAAAA']);
  const image = `data:image/jpeg;base64,/9j/${'A'.repeat(40)}+/w==`;
  expect(redactSecrets({ screenshot: image }, set)).toEqual({ screenshot: image });
  expect(containsSecret({ screenshot: image }, set)).toBe(false);
  expect(redactSecrets({ text: 'data:text/plain,AAAAAAAAAAAAAAAA' }, set)).toEqual({
    text: `data:text/plain,${REDACTED}`,
  });
});
