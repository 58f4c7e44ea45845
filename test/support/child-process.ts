import { spawn } from 'node:child_process';

export interface ProcessOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end in a process of its own, as a reader of the docs would, and collects its
 * output; killed after `timeoutMs`. Never spawnSync: the service under test runs in this process,
 * and a child that talks to it needs this event loop free.
 */
export function runProcess(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
