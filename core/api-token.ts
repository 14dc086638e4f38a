/** A personal API token as shown to its owner (its value is never stored; only a hash and a prefix). */
export interface ApiToken {
  id: number;
  userId: number;
  name: string;
  /** The first characters of the value, for recognising it. */
  prefix: string;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}
