/** A conversation reference as Bot Framework defines it, stored as plain JSON. */
export type StoredReference = Record<string, unknown>;
