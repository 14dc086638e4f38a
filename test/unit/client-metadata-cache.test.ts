import {
  CLIENT_METADATA_CACHE_S,
  clientMetadataCacheSeconds,
  IllFormedMetadataError,
  METADATA_ADDRESS_REFUSED,
  METADATA_TEXT_REFUSED,
  metadataRefusal,
} from '../../oauth/client-metadata.ts';
import { RefusedAddressError } from '../../services/outbound-connection.ts';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const seconds = (headers: Record<string, string>) => clientMetadataCacheSeconds(new Headers(headers), NOW);

describe('how long a Client ID Metadata Document is cached', () => {
  it('not at all for no-store or no-cache, whatever else the header says', () => {
    for (const value of [
      'no-store',
      'no-cache',
      'max-age=300, no-store',
      'public, no-cache, max-age=600',
      'No-Store',
      'no-cache="set-cookie"',
    ]) {
      expect(seconds({ 'cache-control': value })).toBe(0);
    }
  });

  it('max-age within the bounds', () => {
    expect(seconds({ 'cache-control': 'max-age=300' })).toBe(300);
    expect(seconds({ 'cache-control': 'public, max-age=5' })).toBe(CLIENT_METADATA_CACHE_S.min);
    expect(seconds({ 'cache-control': 'max-age=31536000, immutable' })).toBe(CLIENT_METADATA_CACHE_S.max);
  });

  it('Expires when there is no max-age; the minimum when nothing is said', () => {
    expect(seconds({ expires: new Date(NOW + 600_000).toUTCString() })).toBe(600);
    expect(seconds({ expires: new Date(NOW - 600_000).toUTCString() })).toBe(CLIENT_METADATA_CACHE_S.min);
    expect(seconds({ 'cache-control': 'max-age=120', expires: new Date(NOW + 600_000).toUTCString() })).toBe(120);
    expect(seconds({})).toBe(CLIENT_METADATA_CACHE_S.min);
    expect(seconds({ 'cache-control': 'public' })).toBe(CLIENT_METADATA_CACHE_S.min);
  });
});

it('an address refusal and ill-formed text are told apart from other fetch failures, also when wrapped', () => {
  const refused = new RefusedAddressError('metadata.example.test resolves to a private or special-use address');
  expect(metadataRefusal(refused)).toBe(METADATA_ADDRESS_REFUSED);
  expect(metadataRefusal(new Error('client_id metadata document fetch failed', { cause: refused }))).toBe(
    METADATA_ADDRESS_REFUSED,
  );
  expect(
    metadataRefusal(new Error('client_id metadata document fetch failed', { cause: new IllFormedMetadataError() })),
  ).toBe(METADATA_TEXT_REFUSED);
  expect(
    metadataRefusal(
      new Error('client_id metadata document fetch failed', { cause: new Error('no response within 2.5 s') }),
    ),
  ).toBeNull();
  expect(metadataRefusal(undefined)).toBeNull();
});
