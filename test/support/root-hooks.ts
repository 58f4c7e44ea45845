// Mocha root hooks: shared set-up and tear-down for the whole run.
// Integration suites start the test database lazily through ./database; this closes it at the end.
export const mochaHooks = {};
