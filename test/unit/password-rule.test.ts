import { checkNewPassword, MIN_PASSWORD_LENGTH } from '../../services/password-rule.ts';

/** The rule for new passwords (services/password-rule.ts): length, then zxcvbn's score of at least 3. */
const user = { email: 'alice.smith@example.org', name: 'Alice Smith' };

describe('checkNewPassword', () => {
  it.each([
    ['a passphrase of unrelated words', 'quiet lantern over seven hills'],
    ['a random mix', 'Kx9!mQ2#vL7p'],
  ])('accepts %s', (_label, password) => {
    expect(checkNewPassword(password, user, 'en')).toEqual({ ok: true });
  });

  it(`refuses fewer than ${MIN_PASSWORD_LENGTH} characters, counting characters, not bytes`, () => {
    expect(checkNewPassword('Kx9!mQ2#vL7', user, 'en')).toEqual({
      ok: false,
      reason: 'The password must be at least 12 characters.',
    });
    expect(checkNewPassword('äöüßäöüßäöü', user, 'de')).toEqual({
      ok: false,
      reason: 'Das Passwort muss mindestens 12 Zeichen lang sein.',
    });
  });

  it("refuses a common password with the estimator's warning and suggestion, in English and German", () => {
    expect(checkNewPassword('password1234', user, 'en')).toEqual({
      ok: false,
      reason:
        'This password is too easy to guess. This is similar to a commonly used password. Add more words that are less common.',
    });
    expect(checkNewPassword('password1234', user, 'de')).toEqual({
      ok: false,
      reason:
        'Dieses Passwort ist zu leicht zu erraten. Dies weist Ähnlichkeit zu anderen oft verwendeten Passwörtern auf. Weitere Wörter, die weniger häufig vorkommen, hinzufügen.',
    });
  });

  it('refuses keyboard rows and German words as well as English ones', () => {
    expect(checkNewPassword('qwertyuiopasdf', user, 'en').ok).toBe(false);
    expect(checkNewPassword('Wahrscheinlich', user, 'en').ok).toBe(false);
  });

  it("refuses a password made of the user's own address or name", () => {
    const verdict = checkNewPassword('alice.smith@example.org', user, 'en');
    expect(verdict).toEqual({ ok: false, reason: expect.stringContaining('There should not be any personal') });
    expect(checkNewPassword('alice.smith@example.org', { email: 'bob@example.com', name: 'Bob' }, 'en').ok).toBe(true);
  });
});
