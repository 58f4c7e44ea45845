// What marks sandbox things apart from live ones (docs/sandbox.md): the key prefixes, the serials
// reserved for virtual terminals, and the header by which a virtual terminal, played by the service
// itself, proves it to the terminal endpoint of its own process.

/** Keys of a live workspace. */
export const LIVE_KEY_PREFIX = 'tg_live_';
/** Keys of a sandbox workspace: they work on their sandbox only. */
export const TEST_KEY_PREFIX = 'tg_test_';

/**
 * Every serial of a virtual terminal starts with this, and no other serial does: a live workspace
 * cannot register one, a sandbox registers nothing else.
 */
export const SANDBOX_SERIAL_PREFIX = 'TGSBX';

/** Whether a serial is reserved for virtual terminals (compared without regard to case, as serials are). */
export function isSandboxSerial(serial: string): boolean {
  return serial.slice(0, SANDBOX_SERIAL_PREFIX.length).toUpperCase() === SANDBOX_SERIAL_PREFIX;
}

/**
 * The header a virtual terminal sends with every request: a secret of the process that plays it
 * (random at each start, never stored nor logged). A sandbox serial without it is refused.
 */
export const SANDBOX_PROOF_HEADER = 'x-timegate-sandbox';
