// Every PostgreSQL advisory lock the service takes, in one table so that no two uses share a key.
// Keys are arbitrary constants; changing one lets an old and a new process hold "the same" lock at
// once during a rolling deploy, so they never change.

/** Single-key locks: `pg_advisory_lock(key)` / `pg_advisory_xact_lock(key)`. */
export const LOCK_KEYS = {
  /** Held (session lock) while migrations run, so processes started together migrate once. */
  migrations: 7_412_002,
  /** Partition creation and dropping of the history tables. */
  partitions: 7_412_001,
  /** Creating the first workspace of an empty database (one bootstrap key, printed once). */
  firstWorkspace: 7_242_001,
  /** The attendance writers (day store and worker): one at a time across processes. As hex, for `x'…'::bigint`. */
  attendanceWritersHex: '7463616474746e64',
} as const;

/** Two-key namespaces: `pg_advisory_xact_lock(space, id)`, the second key a row id. */
export const LOCK_SPACES = {
  /** Building one terminal's sync commands (id: the device). */
  deviceSync: 7_242_002,
  /** Counting one terminal's pending actions against its bound (id: the device). */
  pendingActions: 7_242_004,
  /** Counting one lockdown's doors as controllers answer (id: the lockdown). */
  lockdown: 7_242_005,
} as const;
