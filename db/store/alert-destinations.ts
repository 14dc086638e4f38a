import type { Knex } from 'knex';
import type { ChatKind, ChatNotice } from '../../core/alert-destinations/notice.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { PlanKey } from '../../core/plans.ts';
import type { DeliveryEvent, WebhookPayload } from '../../core/webhooks/events.ts';

interface DestinationRow {
  id: string | number;
  user_id: string | number;
  target_id: string | number | null;
  kind: ChatKind;
  url_encrypted: string;
  url_hint: string;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A Slack or Teams destination as the settings page shows it: never the URL, only its hint. */
export interface AlertDestination {
  id: number;
  userId: number;
  /** Null: every alert of the account. */
  targetId: number | null;
  kind: ChatKind;
  urlHint: string;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
}

/** With the encrypted URL: only services/alert-destinations.ts opens it. */
export interface StoredAlertDestination extends AlertDestination {
  urlEncrypted: string;
}

const toDestination = (row: DestinationRow): StoredAlertDestination => ({
  id: Number(row.id),
  userId: Number(row.user_id),
  targetId: row.target_id === null ? null : Number(row.target_id),
  kind: row.kind,
  urlHint: row.url_hint,
  disabledAt: row.disabled_at,
  disabledReason: row.disabled_reason,
  createdAt: row.created_at,
  urlEncrypted: row.url_encrypted,
});

const withoutUrl = ({ urlEncrypted: _, ...destination }: StoredAlertDestination): AlertDestination => destination;

export interface NewChatDelivery {
  destinationId: number;
  userId: number;
  event: DeliveryEvent;
  /** The spec's payload of the event (shown in the attempt log; the chat message is built from `notice`). */
  payload: WebhookPayload;
  notice: ChatNotice;
  messageId: string;
  at: Date;
}

/**
 * Queries of the Slack and Teams destinations and of their outbox rows (webhook_deliveries with
 * destination_id), part of the webhook store so that they run in the same transaction as the alert change.
 */
export interface AlertDestinationQueries {
  listDestinations(userId: number): Promise<AlertDestination[]>;
  countDestinations(userId: number): Promise<number>;
  addDestination(destination: {
    userId: number;
    targetId: number | null;
    kind: ChatKind;
    urlEncrypted: string;
    urlHint: string;
    at: Date;
  }): Promise<AlertDestination>;
  /** False when the user has no such destination. */
  removeDestination(userId: number, id: number): Promise<boolean>;
  findDestination(id: number): Promise<StoredAlertDestination | undefined>;
  findOwnedDestination(userId: number, id: number): Promise<StoredAlertDestination | undefined>;
  /** False when it was disabled already. */
  disableDestination(id: number, reason: string, now: Date): Promise<boolean>;
  enableDestination(userId: number, id: number, now: Date): Promise<boolean>;
  /**
   * The enabled destinations an alert of the owner goes to (account-wide ones, and the target's own when
   * `targetId` is given), with the owner's language; none when the owner's plan is not among `plans`.
   */
  destinationsFor(
    userId: number,
    targetId: number | null,
    plans: readonly PlanKey[],
  ): Promise<{ locale: Locale; destinations: AlertDestination[] }>;
  /** An outbox row for one destination (the caller decided it gets the event). */
  enqueueChat(delivery: NewChatDelivery): Promise<number>;
  /** The chat notice of a delivery row, or null when the row is a signed webhook's. */
  chatNoticeOf(deliveryId: number): Promise<ChatNotice | null>;
}

export function createAlertDestinationQueries(knex: Knex | Knex.Transaction): AlertDestinationQueries {
  const destinations = () => knex<DestinationRow>('alert_destinations');
  return {
    async listDestinations(userId) {
      const rows = (await destinations().where({ user_id: userId }).orderBy('id')) as DestinationRow[];
      return rows.map((row) => withoutUrl(toDestination(row)));
    },

    async countDestinations(userId) {
      const row = (await destinations().where({ user_id: userId }).count<{ n: string }[]>('id as n').first()) as
        { n: string } | undefined;
      return Number(row?.n ?? 0);
    },

    async addDestination(destination) {
      const [row] = (await destinations()
        .insert({
          user_id: destination.userId,
          target_id: destination.targetId,
          kind: destination.kind,
          url_encrypted: destination.urlEncrypted,
          url_hint: destination.urlHint,
          created_at: destination.at,
          updated_at: destination.at,
        })
        .returning('*')) as DestinationRow[];
      return withoutUrl(toDestination(row!));
    },

    async removeDestination(userId, id) {
      return (await destinations().where({ id, user_id: userId }).delete()) > 0;
    },

    async findDestination(id) {
      const row = (await destinations().where({ id }).first()) as DestinationRow | undefined;
      return row ? toDestination(row) : undefined;
    },

    async findOwnedDestination(userId, id) {
      const row = (await destinations().where({ id, user_id: userId }).first()) as DestinationRow | undefined;
      return row ? toDestination(row) : undefined;
    },

    async disableDestination(id, reason, now) {
      return (
        (await destinations()
          .where({ id })
          .whereNull('disabled_at')
          .update({ disabled_at: now, disabled_reason: reason, updated_at: now })) > 0
      );
    },

    async enableDestination(userId, id, now) {
      return (
        (await destinations()
          .where({ id, user_id: userId })
          .update({ disabled_at: null, disabled_reason: null, updated_at: now })) > 0
      );
    },

    async destinationsFor(userId, targetId, plans) {
      const owner = (await knex('users')
        .where({ id: userId })
        .whereIn('plan', plans as PlanKey[])
        .first('locale')) as { locale: Locale | null } | undefined;
      if (!owner) return { locale: 'en', destinations: [] };
      const rows = (await destinations()
        .where({ user_id: userId })
        .whereNull('disabled_at')
        .where((q) =>
          targetId === null ? q.whereNull('target_id') : q.whereNull('target_id').orWhere({ target_id: targetId }),
        )
        .orderBy('id')) as DestinationRow[];
      return { locale: owner.locale ?? 'en', destinations: rows.map((row) => withoutUrl(toDestination(row))) };
    },

    async enqueueChat(delivery) {
      const [row] = (await knex('webhook_deliveries')
        .insert({
          message_id: delivery.messageId,
          user_id: delivery.userId,
          event: delivery.event,
          payload: JSON.stringify(delivery.payload),
          destination_id: delivery.destinationId,
          chat_notice: JSON.stringify(delivery.notice),
          created_at: delivery.at,
          updated_at: delivery.at,
        })
        .returning('id')) as Array<{ id: string | number }>;
      return Number(row!.id);
    },

    async chatNoticeOf(deliveryId) {
      const row = (await knex('webhook_deliveries').where({ id: deliveryId }).first('chat_notice')) as
        { chat_notice: ChatNotice | null } | undefined;
      return row?.chat_notice ?? null;
    },
  };
}
