// The `kind` label of timegate_terminal_requests_total: what a terminal request does, from a small
// fixed set (never a raw value the terminal sent, which would let a device grow the label set).
import type { IclockEndpoint, IclockQuery } from '../protocol';
import { uploadTable } from '../protocol';

const UPLOAD_TABLES = new Set(['attlog', 'operlog', 'biodata', 'attphoto', 'rtlog', 'rtstate', 'tabledata', 'options']);

export function terminalRequestKind(endpoint: IclockEndpoint, method: string, query: IclockQuery): string {
  switch (endpoint) {
    case 'cdata': {
      if (method === 'GET') return query.has('options') ? 'handshake' : 'heartbeat';
      const { table } = uploadTable(query);
      return table !== null && UPLOAD_TABLES.has(table) ? table : 'other_table';
    }
    case 'getrequest':
      return 'poll';
    case 'devicecmd':
      return 'command_results';
    case 'push':
      return 'config';
    case 'querydata':
      return ['tabledata', 'tablename'].includes(query.get('type')?.toLowerCase() ?? '') ? 'tabledata' : 'query';
    case 'rtdata':
      return 'time';
    case 'fdata':
      return 'attphoto';
    default:
      return endpoint;
  }
}
