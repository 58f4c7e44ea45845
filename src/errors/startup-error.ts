/**
 * A reason the service or the CLI cannot start that the operator fixes (a port in use, a data folder
 * another process owns or PostgreSQL cannot reach): its message is one sentence saying what to do,
 * printed without a stack trace.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
