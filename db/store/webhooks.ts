import type { Knex } from 'knex';
import type { PlanKey } from '../../core/plans.ts';
import type { DeliveryEvent, WebhookEvent, WebhookPayload } from '../../core/webhooks/events.ts';
import {
  storableText,
  type DeliveryStatus,
  type NewWebhookAttempt,
  type WebhookAttempt,
  type WebhookDelivery,
} from '../../core/webhooks/delivery.ts';
import type { DisabledReason, WebhookEndpoint } from '../../core/webhooks/endpoint.ts';
import { createWebhookLimitQueries, type WebhookLimitQueries } from './webhook-limits.ts';
import { createAlertDestinationQueries, type AlertDestinationQueries } from './alert-destinations.ts';

interface EndpointRow {
  user_id: string | number;
  url: string | null;
  header_name: string | null;
  header_value_encrypted: string | null;
  events: WebhookEvent[];
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: DisabledReason | null;
  created_at: Date;
  updated_at: Date;
}

interface DeliveryRow {
  id: string | number;
  message_id: string;
  user_id: string | number;
  event: DeliveryEvent;
  payload: WebhookPayload;
  status: DeliveryStatus;
  webhook_attempts: number;
  webhook_response_code: number | null;
  webhook_last_error: string | null;
  workflow_started_at: Date | null;
  claimed_until: Date | null;
  destination_id?: string | number | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

interface AttemptRow {
  id: string | number;
  delivery_id: string | number;
  attempted_at: Date;
  duration_ms: number;
  response_code: number | null;
  response_body: string | null;
  error: string | null;
}

/** The endpoint with its secrets as stored (encrypted: core/secrets.ts); only services/webhook-*.ts open them. */
export interface StoredEndpoint extends WebhookEndpoint {
  headerValueEncrypted: string | null;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
}

const toEndpoint = (row: EndpointRow): StoredEndpoint => ({
  userId: Number(row.user_id),
  url: row.url,
  headerName: row.header_name,
  headerValueSet: row.header_value_encrypted !== null,
  events: row.events,
  failingSince: row.failing_since,
  disabledAt: row.disabled_at,
  disabledReason: row.disabled_reason,
  previousSecretExpiresAt: row.previous_secret_expires_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  headerValueEncrypted: row.header_value_encrypted,
  secretEncrypted: row.secret_encrypted,
  previousSecretEncrypted: row.previous_secret_encrypted,
});

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: Number(row.id),
  messageId: row.message_id,
  userId: Number(row.user_id),
  event: row.event,
  payload: row.payload,
  status: row.status,
  webhookAttempts: row.webhook_attempts,
  webhookResponseCode: row.webhook_response_code,
  webhookLastError: row.webhook_last_error,
  workflowStartedAt: row.workflow_started_at,
  createdAt: row.created_at,
  completedAt: row.completed_at,
  destinationId: row.destination_id === null || row.destination_id === undefined ? null : Number(row.destination_id),
});

const toAttempt = (row: AttemptRow): WebhookAttempt => ({
  id: Number(row.id),
  deliveryId: Number(row.delivery_id),
  attemptedAt: row.attempted_at,
  durationMs: row.duration_ms,
  responseCode: row.response_code,
  responseBody: row.response_body,
  error: row.error,
});

export interface EndpointSettings {
  url: string | null;
  headerName: string | null;
  /** `keep`: the stored value stays; null: no value. */
  headerValueEncrypted: string | null | 'keep';
  events: WebhookEvent[];
}

export interface NewWebhookEvent {
  userId: number;
  event: DeliveryEvent;
  payload: WebhookPayload;
  messageId: string;
  at: Date;
}

/** What one attempt did to its delivery. */
export interface AttemptOutcome {
  /** Left `pending` while retries remain. */
  status: DeliveryStatus;
  responseCode: number | null;
  error: string | null;
}

/**
 * Also the per-account limits' queries (db/store/webhook-limits.ts) and the Slack and Teams destinations'
 * (db/store/alert-destinations.ts), so every holder of the store can keep them.
 */
export interface WebhookStore extends WebhookLimitQueries, AlertDestinationQueries {
  findEndpoint(userId: number): Promise<StoredEndpoint | undefined>;
  /** The endpoint, created with this signing secret when the user has none yet. */
  ensureEndpoint(userId: number, secretEncrypted: string, now: Date): Promise<StoredEndpoint>;
  saveSettings(userId: number, settings: EndpointSettings, now: Date): Promise<StoredEndpoint>;
  rotateSecret(
    userId: number,
    secretEncrypted: string,
    previous: { encrypted: string; expiresAt: Date },
    now: Date,
  ): Promise<StoredEndpoint>;
  /** Records a failure; returns since when the endpoint has failed without a success in between. */
  recordEndpointFailure(userId: number, now: Date): Promise<Date>;
  recordEndpointSuccess(userId: number): Promise<void>;
  /** False when it was disabled already. */
  disable(userId: number, reason: DisabledReason, now: Date): Promise<boolean>;
  enable(userId: number, now: Date): Promise<void>;

  /**
   * The outbox: a delivery row for the event when its owner gets it (a URL, the event switched on or `ping`,
   * the endpoint enabled, the plan among `plans`), written with whatever transaction this store runs in.
   * Undefined when the owner does not get it.
   */
  enqueue(event: NewWebhookEvent, plans: readonly PlanKey[]): Promise<WebhookDelivery | undefined>;
  findDelivery(id: number): Promise<WebhookDelivery | undefined>;
  findOwnedDelivery(userId: number, id: number): Promise<WebhookDelivery | undefined>;
  /** The owner's deliveries, newest first. */
  listDeliveries(userId: number, limit: number): Promise<WebhookDelivery[]>;
  attemptsOf(deliveryId: number): Promise<WebhookAttempt[]>;
  /**
   * The attempt and its effect on the delivery's counters, in one transaction; text made storable (storableText).
   * Idempotent by the attempt's key: recorded once however often it is called (`recorded`: by this call).
   */
  recordAttempt(
    attempt: NewWebhookAttempt,
    outcome: AttemptOutcome,
    now: Date,
  ): Promise<{ delivery: WebhookDelivery; recorded: boolean }>;
  /** Back to pending for a resend (its attempts and counters stay). */
  reopen(deliveryId: number, now: Date): Promise<void>;
  /** The owner's failed deliveries created at or after `since`, oldest first, at most `limit`. */
  failedSince(userId: number, since: Date, limit: number): Promise<WebhookDelivery[]>;
  markWorkflowStarted(ids: number[], now: Date): Promise<void>;
  /**
   * Takes the row for a direct first attempt until `until`, in one statement: only a pending row with no
   * workflow and nobody's claim live at `now`. The row as claimed, or undefined: a workflow or another holder
   * has it (send nothing).
   */
  claimDirectAttempt(id: number, now: Date, until: Date): Promise<WebhookDelivery | undefined>;
  /**
   * The sweeper's work, claimed until `until` in one statement: rows created before `createdBefore` that have
   * no workflow and no claim live at `now` (a direct attempt in flight holds one), oldest first. Two sweepers
   * never get the same row while the claim lives.
   */
  claimUnstarted(createdBefore: Date, now: Date, until: Date, limit: number): Promise<WebhookDelivery[]>;
  /** Deliveries still pending (waiting for their next attempt), across all users: the operators' backlog. */
  pendingCount(): Promise<number>;
}

/** Rows no claim holds at `now` (none taken, or run out): a direct attempt or the sweeper may take them. */
const noLiveClaim = (now: Date) => (q: Knex.QueryBuilder) =>
  q.whereNull('claimed_until').orWhere('claimed_until', '<', now);

export function createWebhookStore(knex: Knex | Knex.Transaction): WebhookStore {
  const endpoints = () => knex<EndpointRow>('webhook_endpoints');
  const deliveries = () => knex<DeliveryRow>('webhook_deliveries');
  const updated = async (query: Promise<EndpointRow[]>, userId: number): Promise<StoredEndpoint> => {
    const [row] = await query;
    if (!row) throw new Error(`user ${userId} has no webhook endpoint`);
    return toEndpoint(row);
  };
  return {
    ...createWebhookLimitQueries(knex),
    ...createAlertDestinationQueries(knex),

    async findEndpoint(userId) {
      const row = await endpoints().where({ user_id: userId }).first();
      return row ? toEndpoint(row as EndpointRow) : undefined;
    },

    async ensureEndpoint(userId, secretEncrypted, now) {
      await endpoints()
        .insert({ user_id: userId, secret_encrypted: secretEncrypted, created_at: now, updated_at: now })
        .onConflict('user_id')
        .ignore();
      return toEndpoint((await endpoints().where({ user_id: userId }).first()) as EndpointRow);
    },

    async saveSettings(userId, settings, now) {
      const changes: Partial<EndpointRow> = {
        url: settings.url,
        header_name: settings.headerName,
        events: settings.events,
        updated_at: now,
      };
      if (settings.headerValueEncrypted !== 'keep') changes.header_value_encrypted = settings.headerValueEncrypted;
      return updated(
        endpoints().where({ user_id: userId }).update(changes).returning('*') as unknown as Promise<EndpointRow[]>,
        userId,
      );
    },

    async rotateSecret(userId, secretEncrypted, previous, now) {
      const query = endpoints()
        .where({ user_id: userId })
        .update({
          secret_encrypted: secretEncrypted,
          previous_secret_encrypted: previous.encrypted,
          previous_secret_expires_at: previous.expiresAt,
          updated_at: now,
        })
        .returning('*');
      return updated(query as unknown as Promise<EndpointRow[]>, userId);
    },

    async recordEndpointFailure(userId, now) {
      const [row] = (await endpoints()
        .where({ user_id: userId })
        .update({ failing_since: knex.raw('coalesce(failing_since, ?)', [now]) as unknown as Date })
        .returning('failing_since')) as Array<{ failing_since: Date }>;
      return row?.failing_since ?? now;
    },

    async recordEndpointSuccess(userId) {
      await endpoints().where({ user_id: userId }).whereNotNull('failing_since').update({ failing_since: null });
    },

    async disable(userId, reason, now) {
      return (
        (await endpoints()
          .where({ user_id: userId })
          .whereNull('disabled_at')
          .update({ disabled_at: now, disabled_reason: reason, updated_at: now })) > 0
      );
    },

    async enable(userId, now) {
      await endpoints()
        .where({ user_id: userId })
        .update({ disabled_at: null, disabled_reason: null, failing_since: null, updated_at: now });
    },

    async enqueue(event, plans) {
      const eligible = (await knex('webhook_endpoints as e')
        .join('users as u', 'u.id', 'e.user_id')
        .where('e.user_id', event.userId)
        .whereNotNull('e.url')
        .whereNull('e.disabled_at')
        .whereIn('u.plan', plans as PlanKey[])
        .where((q) => (event.event === 'ping' ? q : q.whereRaw('? = any(e.events)', [event.event])))
        .first('e.user_id')) as { user_id: string } | undefined;
      if (!eligible) return undefined;
      const [row] = await deliveries()
        .insert({
          message_id: event.messageId,
          user_id: event.userId,
          event: event.event,
          payload: JSON.stringify(event.payload) as unknown as WebhookPayload,
          created_at: event.at,
          updated_at: event.at,
        })
        .returning('*');
      return toDelivery(row as DeliveryRow);
    },

    async findDelivery(id) {
      const row = await deliveries().where({ id }).first();
      return row ? toDelivery(row as DeliveryRow) : undefined;
    },

    async findOwnedDelivery(userId, id) {
      const row = await deliveries().where({ id, user_id: userId }).first();
      return row ? toDelivery(row as DeliveryRow) : undefined;
    },

    async listDeliveries(userId, limit) {
      return ((await deliveries().where({ user_id: userId }).orderBy('id', 'desc').limit(limit)) as DeliveryRow[]).map(
        toDelivery,
      );
    },

    async attemptsOf(deliveryId) {
      return (
        (await knex<AttemptRow>('webhook_attempts').where({ delivery_id: deliveryId }).orderBy('id')) as AttemptRow[]
      ).map(toAttempt);
    },

    async recordAttempt(attempt, outcome, now) {
      return knex.transaction(async (trx) => {
        const inserted = (await trx('webhook_attempts')
          .insert({
            delivery_id: attempt.deliveryId,
            attempt_key: attempt.key,
            attempted_at: attempt.attemptedAt,
            duration_ms: attempt.durationMs,
            response_code: attempt.responseCode,
            response_body: attempt.responseBody === null ? null : storableText(attempt.responseBody),
            error: attempt.error === null ? null : storableText(attempt.error),
          })
          .onConflict('attempt_key')
          .ignore()
          .returning('id')) as Array<{ id: number }>;
        // Recorded already (an earlier try committed, its answer lost): the delivery's counters were moved then.
        if (inserted.length === 0)
          return {
            delivery: toDelivery(
              (await trx<DeliveryRow>('webhook_deliveries').where({ id: attempt.deliveryId }).first()) as DeliveryRow,
            ),
            recorded: false,
          };
        const [row] = (await trx('webhook_deliveries')
          .where({ id: attempt.deliveryId })
          .update({
            status: outcome.status,
            webhook_attempts: trx.raw('webhook_attempts + 1'),
            webhook_response_code: outcome.responseCode,
            webhook_last_error: outcome.error === null ? null : storableText(outcome.error),
            updated_at: now,
            completed_at: outcome.status === 'pending' ? null : now,
          })
          .returning('*')) as DeliveryRow[];
        return { delivery: toDelivery(row!), recorded: true };
      });
    },

    async reopen(deliveryId, now) {
      await deliveries().where({ id: deliveryId }).update({ status: 'pending', completed_at: null, updated_at: now });
    },

    async failedSince(userId, since, limit) {
      return (
        (await deliveries()
          .where({ user_id: userId, status: 'failed' })
          .where('created_at', '>=', since)
          .orderBy('id')
          .limit(limit)) as DeliveryRow[]
      ).map(toDelivery);
    },

    async markWorkflowStarted(ids, now) {
      if (ids.length === 0) return;
      await deliveries().whereIn('id', ids).whereNull('workflow_started_at').update({ workflow_started_at: now });
    },

    async claimDirectAttempt(id, now, until) {
      const rows = (await deliveries()
        .where({ id, status: 'pending' })
        .whereNull('workflow_started_at')
        .where(noLiveClaim(now))
        .update({ claimed_until: until })
        .returning('*')) as DeliveryRow[];
      return rows[0] ? toDelivery(rows[0]) : undefined;
    },

    async claimUnstarted(createdBefore, now, until, limit) {
      const free = (q: Knex.QueryBuilder) =>
        q.whereNull('workflow_started_at').where('created_at', '<', createdBefore).where(noLiveClaim(now));
      // The WHERE is checked again on the locked row, so a claim taken meanwhile (a direct attempt) wins.
      const rows = (await free(
        deliveries().whereIn(
          'id',
          free(knex('webhook_deliveries').select('id')).orderBy('id').limit(limit).forUpdate().skipLocked(),
        ),
      )
        .update({ claimed_until: until })
        .returning('*')) as DeliveryRow[];
      return rows.map(toDelivery).sort((a, b) => a.id - b.id);
    },

    async pendingCount() {
      const row = (await deliveries()
        .where({ status: 'pending' })
        .count<{ count: string }[]>('id as count')
        .first()) as { count: string } | undefined;
      return Number(row?.count ?? 0);
    },
  };
}
