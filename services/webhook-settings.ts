import type { Clock } from '../core/clock.ts';
import type { Keyring } from '../core/keys.ts';
import { hasFeature, planFor, type PlanKey } from '../core/plans.ts';
import { checkScanTarget, type HostLookup } from '../infra/scan-target.ts';
import { decryptSecret, encryptSecret } from '../core/secrets.ts';
import {
  decideSettingsChange,
  PREVIOUS_SECRET_LIFETIME_MS,
  type WebhookSettingsErrors,
  type WebhookSettingsForm,
} from '../core/webhooks/endpoint.ts';
import { newSigningSecret } from '../core/webhooks/signing.ts';
import type { StoredEndpoint, WebhookStore } from '../db/store/webhooks.ts';

/** What the notification settings need: the store, the keys that encrypt its secrets, and the outbound address rule. */
export interface WebhookSettingsDeps {
  webhooks: WebhookStore;
  keys: Keyring;
  allowLoopback: boolean;
  clock: Clock;
  /** Tests resolve names their own way; the system resolver otherwise. */
  lookup?: HostLookup;
}

/** The settings as the page shows them: the signing secrets in clear (the owner copies them), never the header value. */
export interface WebhookSettingsView {
  endpoint: StoredEndpoint;
  secret: string;
  /** The rotated-out secret while it still signs. */
  previousSecret: { secret: string; expiresAt: Date } | null;
}

// Bound to the owner as associated data: a ciphertext copied into another user's row does not decrypt.
const headerContext = (userId: number) => `webhook-header:${userId}`;
const secretContext = (userId: number) => `webhook-signing:${userId}`;

export const mayUseWebhooks = (plan: PlanKey): boolean => hasFeature(planFor(plan), 'webhooks');

const openSecret = (deps: Pick<WebhookSettingsDeps, 'keys'>, userId: number, stored: string) =>
  decryptSecret(deps.keys, 'webhook-signing', stored, secretContext(userId));

/** The owner's endpoint (created with a fresh signing secret on first use) and its secrets. */
export async function webhookSettings(deps: WebhookSettingsDeps, userId: number): Promise<WebhookSettingsView> {
  const endpoint =
    (await deps.webhooks.findEndpoint(userId)) ??
    (await deps.webhooks.ensureEndpoint(
      userId,
      encryptSecret(deps.keys, 'webhook-signing', newSigningSecret(), secretContext(userId)),
      deps.clock(),
    ));
  return viewOf(deps, endpoint);
}

function viewOf(deps: Pick<WebhookSettingsDeps, 'keys' | 'clock'>, endpoint: StoredEndpoint): WebhookSettingsView {
  const previousLive =
    endpoint.previousSecretEncrypted &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt > deps.clock();
  return {
    endpoint,
    secret: openSecret(deps, endpoint.userId, endpoint.secretEncrypted),
    previousSecret: previousLive
      ? {
          secret: openSecret(deps, endpoint.userId, endpoint.previousSecretEncrypted!),
          expiresAt: endpoint.previousSecretExpiresAt!,
        }
      : null,
  };
}

/** The secrets that sign a request now: the current one, then the previous one during its 24 hours. */
export function signingSecrets(deps: Pick<WebhookSettingsDeps, 'keys' | 'clock'>, endpoint: StoredEndpoint): string[] {
  const view = viewOf(deps, endpoint);
  return view.previousSecret ? [view.secret, view.previousSecret.secret] : [view.secret];
}

/** The configured authentication header, decrypted, or null. */
export function authHeaderOf(
  deps: Pick<WebhookSettingsDeps, 'keys'>,
  endpoint: StoredEndpoint,
): { name: string; value: string } | null {
  if (!endpoint.headerName || !endpoint.headerValueEncrypted) return null;
  return {
    name: endpoint.headerName,
    value: decryptSecret(deps.keys, 'webhook-header', endpoint.headerValueEncrypted, headerContext(endpoint.userId)),
  };
}

/** Null when the URL's host may receive webhooks (public addresses; loopback when configured); the reason otherwise. */
export async function refusedWebhookAddress(
  deps: Pick<WebhookSettingsDeps, 'allowLoopback' | 'lookup'>,
  url: string,
): Promise<string | null> {
  const verdict = await checkScanTarget(new URL(url).hostname, {
    allowLoopback: deps.allowLoopback,
    lookup: deps.lookup,
  });
  if (verdict.allowed) return null;
  return verdict.code === 'blocked_address'
    ? 'The URL points to a private or special-use address; webhooks go to public addresses only.'
    : "The URL's host name does not resolve.";
}

export type SaveOutcome =
  | { status: 'saved'; settings: WebhookSettingsView }
  | { status: 'invalid'; errors: WebhookSettingsErrors }
  | { status: 'plan_required' };

/** Applies the settings form (core/webhooks/endpoint.ts has the save rules) after checking the plan and the URL's address. */
export async function saveWebhookSettings(
  deps: WebhookSettingsDeps,
  user: { id: number; plan: PlanKey },
  form: WebhookSettingsForm,
): Promise<SaveOutcome> {
  if (!mayUseWebhooks(user.plan)) return { status: 'plan_required' };
  const current = await webhookSettings(deps, user.id);
  const decided = decideSettingsChange(form, current.endpoint.headerValueSet);
  if ('errors' in decided) return { status: 'invalid', errors: decided.errors };
  const { change } = decided;
  if (change.url) {
    const refused = await refusedWebhookAddress(deps, change.url);
    if (refused) return { status: 'invalid', errors: { url: refused } };
  }
  const headerValueEncrypted =
    change.headerValue.kind === 'keep'
      ? 'keep'
      : change.headerValue.kind === 'clear'
        ? null
        : encryptSecret(deps.keys, 'webhook-header', change.headerValue.value, headerContext(user.id));
  const endpoint = await deps.webhooks.saveSettings(
    user.id,
    { url: change.url, headerName: change.headerName, headerValueEncrypted, events: change.events },
    deps.clock(),
  );
  return { status: 'saved', settings: viewOf(deps, endpoint) };
}

/** A new signing secret; the one it replaces keeps signing for 24 hours. */
export async function rotateSigningSecret(deps: WebhookSettingsDeps, userId: number): Promise<WebhookSettingsView> {
  const current = await webhookSettings(deps, userId);
  const now = deps.clock();
  const endpoint = await deps.webhooks.rotateSecret(
    userId,
    encryptSecret(deps.keys, 'webhook-signing', newSigningSecret(), secretContext(userId)),
    { encrypted: current.endpoint.secretEncrypted, expiresAt: new Date(now.getTime() + PREVIOUS_SECRET_LIFETIME_MS) },
    now,
  );
  return viewOf(deps, endpoint);
}
