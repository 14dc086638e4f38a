import { createCipheriv, createHmac, hkdfSync } from 'node:crypto';
import { keysOf, masterKey, purposeKey, type Keyring } from '../../core/keys.ts';
import { decryptSecret, encryptSecret } from '../../core/secrets.ts';
import { assetUrl, verifyAssetSignature } from '../../services/assets.ts';

const oldKey = masterKey(Buffer.alloc(32, 1));
const newKey = masterKey(Buffer.alloc(32, 2));
const only = (key = newKey): Keyring => ({ current: key, previous: null });
const rotating: Keyring = { current: newKey, previous: oldKey };

describe('per-purpose keys', () => {
  it('are HKDF-SHA256 of SECRET_KEY, one per purpose, none equal to SECRET_KEY itself', () => {
    const keys = (['scan-credentials', 'webhook-header', 'image-url', 'csrf'] as const).map((purpose) =>
      purposeKey(newKey, purpose),
    );
    expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(4);
    for (const key of keys) {
      expect(key).toHaveLength(32);
      expect(key.equals(newKey.secret)).toBe(false);
    }
    const expected = Buffer.from(
      hkdfSync('sha256', newKey.secret, 'webperf key derivation v1', 'purpose:image-url', 32),
    );
    expect(purposeKey(newKey, 'image-url').equals(expected)).toBe(true);
  });

  it('name each master key by a stable fingerprint that reveals nothing of it', () => {
    expect(masterKey(Buffer.alloc(32, 2)).id).toBe(newKey.id);
    expect(newKey.id).not.toBe(oldKey.id);
    expect(newKey.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(newKey.secret.toString('base64url')).not.toContain(newKey.id);
    expect(keysOf(rotating)).toEqual([newKey, oldKey]);
  });
});

describe('secrets at rest', () => {
  it('round-trip, record the key id, and refuse another context, purpose or key, or a tampered value', () => {
    const stored = encryptSecret(only(), 'scan-credentials', 'p@ss', 'scan-credentials:a');
    expect(stored).not.toContain('p@ss');
    expect(stored.split('.').slice(0, 2)).toEqual(['v2', newKey.id]);
    expect(decryptSecret(only(), 'scan-credentials', stored, 'scan-credentials:a')).toBe('p@ss');
    expect(() => decryptSecret(only(), 'scan-credentials', stored, 'scan-credentials:b')).toThrow();
    expect(() => decryptSecret(only(), 'webhook-header', stored, 'scan-credentials:a')).toThrow();
    expect(() => decryptSecret(only(oldKey), 'scan-credentials', stored, 'scan-credentials:a')).toThrow(
      /neither SECRET_KEY nor SECRET_KEY_PREVIOUS/,
    );
    const parts = stored.split('.');
    parts[4] = Buffer.from('xxxx').toString('base64url');
    expect(() => decryptSecret(only(), 'scan-credentials', parts.join('.'), 'scan-credentials:a')).toThrow();
  });

  it('written with the old key still decrypt while it is SECRET_KEY_PREVIOUS, and new ones use the new key', () => {
    const old = encryptSecret(only(oldKey), 'scan-credentials', 'before', 'ctx');
    expect(decryptSecret(rotating, 'scan-credentials', old, 'ctx')).toBe('before');
    expect(encryptSecret(rotating, 'scan-credentials', 'after', 'ctx').split('.')[1]).toBe(newKey.id);
    expect(() => decryptSecret(only(), 'scan-credentials', old, 'ctx')).toThrow();
  });

  it('in the v1 format (raw SECRET_KEY, before per-purpose keys) are still read, never written', () => {
    const iv = Buffer.alloc(12, 3);
    const cipher = createCipheriv('aes-256-gcm', oldKey.secret, iv);
    cipher.setAAD(Buffer.from('ctx'));
    const data = Buffer.concat([cipher.update('legacy', 'utf8'), cipher.final()]);
    const v1 = [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join('.');
    expect(decryptSecret(rotating, 'scan-credentials', v1, 'ctx')).toBe('legacy');
    expect(() => decryptSecret(only(), 'scan-credentials', v1, 'ctx')).toThrow();
  });
});

describe('signed image URLs', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  const shared = {
    publicId: '01jd0000000000000000000000',
    isPublic: false,
    shareEnabled: true,
    shareToken: 'T'.repeat(32),
  };
  const query = (url: string) =>
    Object.fromEntries(new URL(url).searchParams) as { expires: string; signature: string };
  const verify = (keys: Keyring, scan: typeof shared, url: string, at = now) =>
    verifyAssetSignature(keys, scan, 'shot.jpg', query(url).expires, query(url).signature, at);

  it('are signed with the image-url key, not SECRET_KEY itself, and name the key', () => {
    const url = assetUrl('https://x.example', only(), shared, 'shot.jpg', now, 'owner');
    const { expires, signature } = query(url);
    const rawMac = createHmac('sha256', newKey.secret)
      .update(`asset\nowner\n${shared.publicId}\nshot.jpg\n${expires}`)
      .digest('base64url');
    expect(signature.startsWith(`${newKey.id}.`)).toBe(true);
    expect(signature).not.toContain(rawMac);
    expect(verify(only(), shared, url)).toBe(true);
    expect(verify(only(), shared, url, new Date(now.getTime() + 25 * 3600_000))).toBe(false);
    expect(verifyAssetSignature(only(), shared, 'other.jpg', expires, signature, now)).toBe(false);
  });

  it('for the owner keep working when sharing is disabled; for the share page they stop', () => {
    const owner = assetUrl('https://x.example', only(), shared, 'shot.jpg', now, 'owner');
    const share = assetUrl('https://x.example', only(), shared, 'shot.jpg', now, 'share');
    expect(verify(only(), shared, share)).toBe(true);
    const disabled = { ...shared, shareEnabled: false };
    expect(verify(only(), disabled, owner)).toBe(true);
    expect(verify(only(), disabled, share)).toBe(false);
    expect(verify(only(), { ...shared, shareToken: 'U'.repeat(32) }, share)).toBe(false);
  });

  it('made with the previous key verify during rotation, and not after it', () => {
    const url = assetUrl('https://x.example', only(oldKey), shared, 'shot.jpg', now, 'owner');
    expect(verify(rotating, shared, url)).toBe(true);
    expect(verify(only(), shared, url)).toBe(false);
  });

  it('are plain for public scans', () => {
    expect(assetUrl('https://x.example', only(), { ...shared, isPublic: true }, 'shot.jpg', now, 'share')).toBe(
      `https://x.example/assets/${shared.publicId}/shot.jpg`,
    );
  });
});
