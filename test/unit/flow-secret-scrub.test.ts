import { REDACTED, scrubFlowSecrets } from '../../core/flows/secret-scrub.ts';

const secrets = {
  shop: { kind: 'password' as const, value: 'p&ss w<rd/1' },
  otp: { kind: 'totp' as const, value: 'JBSWY3DPEHPK3PXP' },
};

it('replaces every form of every secret in every string, keys included, and leaves numbers alone', () => {
  const value = {
    message: 'typed p&ss w<rd/1 into #password',
    url: 'https://shop.example/login?pw=p%26ss%20w%3Crd%2F1&x=p%26ss+w%3Crd%2F1',
    snippet: '<input value="p&amp;ss w&lt;rd/1">',
    list: ['seed JBSWY3DPEHPK3PXP', 'code 492039', 492039],
    'p&ss w<rd/1': true,
  };
  const scrubbed = scrubFlowSecrets(value, secrets, ['492039']);
  expect(JSON.stringify(scrubbed)).not.toMatch(/p&ss|p%26ss|p&amp;ss|JBSWY3|"code 492039"/);
  expect(scrubbed).toEqual({
    message: `typed ${REDACTED} into #password`,
    url: `https://shop.example/login?pw=${REDACTED}&x=${REDACTED}`,
    snippet: `<input value="${REDACTED}">`,
    list: [`seed ${REDACTED}`, `code ${REDACTED}`, 492039],
    [REDACTED]: true,
  });
});

it('scrubs a plain string and returns it unchanged without secrets', () => {
  expect(scrubFlowSecrets('Error: p&ss w<rd/1 at line 3', secrets)).toBe(`Error: ${REDACTED} at line 3`);
  expect(scrubFlowSecrets('nothing here', {})).toBe('nothing here');
});
