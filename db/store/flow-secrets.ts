import type { Knex } from 'knex';
import type { FlowSecretKind } from '../../core/flows/flow.ts';

export interface FlowSecretInfo {
  name: string;
  kind: FlowSecretKind;
  updatedAt: Date;
}

/** A flow's secrets (table `flow_secrets`), stored encrypted (core/flows/secrets.ts). */
export interface FlowSecretStore {
  /** Names and kinds only: the values never leave the store except through `encryptedSecrets`. */
  secrets(flowId: number): Promise<FlowSecretInfo[]>;
  /** The stored ciphertexts, for the flow-run activity alone. */
  encryptedSecrets(flowId: number): Promise<Array<{ name: string; kind: FlowSecretKind; valueEncrypted: string }>>;
  /** Sets a secret; true when it was new. */
  putSecret(
    flowId: number,
    secret: { name: string; kind: FlowSecretKind; valueEncrypted: string },
    now: Date,
  ): Promise<boolean>;
  deleteSecret(flowId: number, name: string): Promise<boolean>;
}

export function createFlowSecretStore(knex: Knex | Knex.Transaction): FlowSecretStore {
  return {
    async secrets(flowId) {
      const rows = await knex('flow_secrets')
        .where({ flow_id: flowId })
        .orderBy('name')
        .select('name', 'kind', 'updated_at');
      return rows.map((row) => ({
        name: row.name as string,
        kind: row.kind as FlowSecretKind,
        updatedAt: row.updated_at as Date,
      }));
    },

    async encryptedSecrets(flowId) {
      const rows = await knex('flow_secrets').where({ flow_id: flowId }).select('name', 'kind', 'value_encrypted');
      return rows.map((row) => ({
        name: row.name as string,
        kind: row.kind as FlowSecretKind,
        valueEncrypted: row.value_encrypted as string,
      }));
    },

    async putSecret(flowId, secret, now) {
      const rows = (await knex('flow_secrets')
        .insert({
          flow_id: flowId,
          name: secret.name,
          kind: secret.kind,
          value_encrypted: secret.valueEncrypted,
          created_at: now,
          updated_at: now,
        })
        .onConflict(['flow_id', 'name'])
        .merge(['kind', 'value_encrypted', 'updated_at'])
        .returning(knex.raw('(xmax = 0) as inserted'))) as Array<{ inserted: boolean }>;
      return rows[0]?.inserted === true;
    },

    async deleteSecret(flowId, name) {
      return (await knex('flow_secrets').where({ flow_id: flowId, name }).delete()) > 0;
    },
  };
}
