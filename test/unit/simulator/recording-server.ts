// A small node:http server for the simulator's behaviour tests: it records every request
// byte for byte and answers from a script. It is a test double of the Timegate server, nothing more.
import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  pathname: string;
  query: URLSearchParams;
  /** Path and query exactly as received. */
  rawPath: string;
  headers: http.IncomingHttpHeaders;
  /** Header names in wire order. */
  headerNames: string[];
  body: string;
  at: number;
}

export type Reply = string | { status?: number; body: string };
export type Responder = (req: RecordedRequest) => Reply;

export class RecordingServer {
  readonly requests: RecordedRequest[] = [];
  private readonly events = new EventEmitter();
  private constructor(
    private readonly server: http.Server,
    public responder: Responder,
  ) {}

  static async start(responder: Responder): Promise<RecordingServer> {
    const server = http.createServer();
    const rec = new RecordingServer(server, responder);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const names: string[] = [];
        for (let i = 0; i < req.rawHeaders.length; i += 2) names.push(req.rawHeaders[i]!);
        const recorded: RecordedRequest = {
          method: req.method ?? '',
          pathname: url.pathname,
          query: url.searchParams,
          rawPath: req.url ?? '',
          headers: req.headers,
          headerNames: names,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        rec.requests.push(recorded);
        const reply = rec.responder(recorded);
        const { status, body } = typeof reply === 'string' ? { status: 200, body: reply } : { status: reply.status ?? 200, body: reply.body };
        res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
        rec.events.emit('request', recorded);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return rec;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Requests on one endpoint (`/iclock/getrequest`), optionally with a given `table=`. */
  on(pathname: string, table?: string): RecordedRequest[] {
    return this.requests.filter((r) => r.pathname === pathname && (table === undefined || r.query.get('table') === table));
  }

  /** Resolves with the first request (already seen or future) matching the predicate. */
  waitFor(match: (r: RecordedRequest) => boolean, timeoutMs = 1000): Promise<RecordedRequest> {
    const seen = this.requests.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.events.off('request', listener);
        reject(new Error('timed out waiting for a matching request'));
      }, timeoutMs);
      const listener = (r: RecordedRequest): void => {
        if (!match(r)) return;
        clearTimeout(timer);
        this.events.off('request', listener);
        resolve(r);
      };
      this.events.on('request', listener);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export interface ScriptOptions {
  delaySeconds?: number;
  /** Commands handed out on the next polls: each entry is one whole poll reply. */
  commandReplies?: string[];
  /** Override any upload reply; return undefined to use the default. */
  upload?: (req: RecordedRequest) => Reply | undefined;
  /** Security: answer the first handshake as already registered. */
  registered?: boolean;
  options?: string[];
}

/** A well-behaved server following the protocol reference, for both families. */
export function protocolScript(opts: ScriptOptions = {}): Responder {
  const delay = opts.delaySeconds ?? 1;
  return (req) => {
    const sn = req.query.get('SN') ?? '';
    switch (req.pathname) {
      case '/iclock/cdata': {
        if (req.method === 'GET' && req.query.get('options') === 'all') {
          if (req.query.get('DeviceType') === 'acc') {
            return opts.registered ? `registry=ok\nRegistryCode=REGCODE1\nSessionID=SESSIONFROMHS\nRequestDelay=${delay}` : 'OK';
          }
          return [
            `GET OPTION FROM: ${sn}`,
            'ATTLOGStamp=9999',
            'OPERLOGStamp=9999',
            'ATTPHOTOStamp=None',
            'ErrorDelay=30',
            `Delay=${delay}`,
            'TransTimes=00:00;14:05',
            'TransInterval=1',
            'TransFlag=1111000000',
            'TimeZone=0',
            'Realtime=1',
            'Encrypt=None',
            ...(opts.options ?? []),
          ].join('\n');
        }
        const custom = opts.upload?.(req);
        if (custom !== undefined) return custom;
        if (req.query.get('table') === 'tabledata') return `${req.query.get('tablename')}=${req.query.get('count')}`;
        const lines = req.body.split('\n').filter((l) => l !== '').length;
        return req.query.get('table') === 'ATTLOG' || req.query.get('table') === 'OPERLOG' ? `OK: ${lines}` : 'OK';
      }
      case '/iclock/registry':
        return 'RegistryCode=Uy47fxftP3';
      case '/iclock/push':
        return [
          'ServerVersion=3.0.1',
          'ServerName=ADMS',
          'PushVersion=3.0.1',
          'ErrorDelay=60',
          `RequestDelay=${delay}`,
          'TransTimes=00:00;14:00',
          'TransInterval=1',
          'TransTables=User Transaction',
          'Realtime=1',
          'SessionID=30BFB04B2C8AECC72C01C03BFD549D15',
          'TimeoutSec=10',
        ].join('\n');
      case '/iclock/getrequest':
        return opts.commandReplies?.shift() ?? 'OK';
      default:
        return 'OK';
    }
  };
}
