// What a test process closes once at the end of its run: resources a support module keeps for the
// whole process (the shared Chromium of ./browser), closed by the root hook (./root-hooks) without
// it loading the modules that opened them.
const cleanups: Array<() => Promise<void>> = [];

/** Registers `cleanup` to run at the end of the run in this process. */
export function onProcessCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** Runs every registered cleanup. */
export async function runProcessCleanups(): Promise<void> {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
}
