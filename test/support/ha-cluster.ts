// The PostgreSQL cluster of deploy/ha/cluster.sh (Patroni + etcd + HAProxy on local ports), driven
// from tests: started in a folder of its own on a free block of ports, stopped and removed after.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
export const CLUSTER_SCRIPT = path.join(root, 'deploy', 'ha', 'cluster.sh');
/** Ports the script takes from its base port (etcd, HAProxy, members' PostgreSQL and REST API). */
const PORT_SPAN = 30;

export interface HaCluster {
  dir: string;
  /** DATABASE_URL: the primary through HAProxy. */
  databaseUrl: string;
  /** The standbys through HAProxy (round robin). */
  replicaUrl: string;
  /** Each member's Patroni REST API, by member name (pg1, pg2, ...). */
  patroni: Map<string, string>;
  /** Runs a command of the script on this cluster; resolves with what it printed. */
  run(command: string, ...args: string[]): Promise<string>;
  /** The member whose Patroni says it is the primary (GET /primary 200), or null while none is. */
  leader(): Promise<string | null>;
  stop(): Promise<void>;
}

/** Runs deploy/ha/cluster.sh; rejects with its error output when it fails. */
export function clusterScript(args: string[], timeoutMs = 600_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [CLUSTER_SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`cluster.sh ${args.join(' ')} ended with ${signal ?? code}:\n${err}`));
    });
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port whose whole block is free now. */
async function freeBlock(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 1_500) * PORT_SPAN;
    const ports = Array.from({ length: PORT_SPAN }, (_, i) => base + i);
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return base;
  }
  throw new Error('no free block of ports for the cluster');
}

/** Starts a cluster (`members` Patroni members, `sync` synchronous standbys); about a minute on an idle machine. */
export async function startHaCluster(options: { members?: number; sync?: number } = {}): Promise<HaCluster> {
  // Under /tmp with mode 755: as root, the members run as `postgres`, which must reach the folder.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-ha-'));
  fs.chmodSync(parent, 0o755);
  const dir = path.join(parent, 'cluster');
  const base = await freeBlock();
  const args = ['--dir', dir, '--base-port', String(base), '--members', String(options.members ?? 3), '--sync', String(options.sync ?? 1)];
  let printed: string;
  try {
    printed = await clusterScript(['start', ...args]);
  } catch (error) {
    await clusterScript(['stop', '--dir', dir, '--fast']).catch(() => undefined);
    throw error;
  }
  const env = new Map(
    printed
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
  );
  const patroni = new Map<string, string>();
  for (const [name, value] of env) {
    const member = /^PATRONI_(PG\d+)_URL$/.exec(name)?.[1];
    if (member) patroni.set(member.toLowerCase(), value);
  }
  const run = (command: string, ...rest: string[]) => clusterScript([command, ...rest, '--dir', dir]);
  return {
    dir,
    databaseUrl: env.get('DATABASE_URL')!,
    replicaUrl: env.get('DATABASE_REPLICA_URL')!,
    patroni,
    run,
    leader: async () => {
      for (const [name, url] of patroni) {
        const reply = await fetch(`${url}/primary`, { signal: AbortSignal.timeout(1000) }).catch(() => null);
        if (reply?.status === 200) return name;
      }
      return null;
    },
    stop: async () => {
      await clusterScript(['stop', '--dir', dir, '--fast', '--remove']).catch(() => undefined);
      fs.rmSync(parent, { recursive: true, force: true });
    },
  };
}
