// What it takes to bring an access level onto a controller, and to take it away again: 500 people
// on a level over the 4 doors of one (simulated) access controller. Counts what the controller
// receives until every person is synced (then removed): commands, the records in them, the bytes
// of the poll replies that carried them, and the polls it took. The controller reports
// MaxPackageSize=2048000 in its registry, as the vendor's samples do; TIMEGATE_COMMAND_BATCH_SIZE
// is the default (5 commands a poll). Time is printed, not compared (it depends on the poll interval).
// Run: npm run build && node dist/bench/access-level-sync.js [--people 500] [--poll-ms 100]
import 'reflect-metadata';
import { once } from 'node:events';
import { SimulatedTerminal } from '../src/simulator';
import { parseCommandReply } from '../src/simulator/command-parser';
import { waitUntil } from '../test/support/wait-until';
import { benchDatabase, call, createFleet, numberArg, report, runScenario, spawnService, withClient } from './support';

interface Delivered {
  commands: number;
  records: number;
  bytes: number;
  polls: number;
  seconds: number;
}

async function main(): Promise<void> {
  const people = numberArg('people', 500);
  const pollMs = numberArg('poll-ms', 100);
  const db = await benchDatabase('access_level');
  // A service that does not come up (a loaded machine) must not leave the database running.
  const service = await spawnService(db.url, { TIMEGATE_RATE_LIMIT_PER_MINUTE: '10000000', TIMEGATE_RATE_LIMIT_BURST: '10000000' }).catch(async (error) => {
    await db.stop();
    throw error;
  });
  const fleet = await createFleet(service.url, 1, 'ACL');
  const terminal = new SimulatedTerminal({
    serverUrl: service.url,
    serialNumber: fleet.serials[0]!,
    family: 'acc',
    lockCount: 4,
    pollIntervalMs: pollMs,
    connection: 'keep-alive',
  });
  let counting: Delivered = { commands: 0, records: 0, bytes: 0, polls: 0, seconds: 0 };
  terminal.on('poll', ({ reply }: { reply: string }) => {
    const commands = parseCommandReply(reply);
    if (commands.length === 0) return;
    counting.commands += commands.length;
    counting.records += commands.reduce((n, c) => n + Math.max(1, c.records.length), 0);
    counting.bytes += Buffer.byteLength(reply, 'utf8');
    counting.polls += 1;
  });
  try {
    terminal.start();
    await once(terminal, 'handshake');
    const deviceId = fleet.deviceIds[0]!;
    const doors = await waitUntil(
      'the controller reports its four doors',
      async () => {
        const listed = (await call(service.url, fleet.key, 'GET', `/public/v2/devices/${deviceId}/doors`)) as { id: number }[];
        return listed.length === 4 ? listed : null;
      },
      60_000,
    );
    const schedule = await call(service.url, fleet.key, 'POST', '/public/v2/access_schedules', {
      company_id: fleet.companyId,
      name: 'Office',
      intervals: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_time: '08:30', end_time: '17:30' })),
    });
    const level = await call(service.url, fleet.key, 'POST', '/public/v2/access_levels', {
      company_id: fleet.companyId,
      name: 'Everyone',
      schedule_id: schedule.id,
      door_ids: doors.map((d) => d.id),
    });
    // The people exist already (written by SQL: creating them is not what is measured).
    const employees = await withClient(db.url, async (client) => {
      const {
        rows: [workspace],
      } = await client.query('select workspace_id from company where id = $1', [fleet.companyId]);
      const { rows } = await client.query(
        `insert into employee (workspace_id, company_id, name, lastname, code, pin, created_at, updated_at)
         select $1, $2, 'Person' || g, 'Bench', 'E' || g, g::text, now(), now() from generate_series(100001, 100000 + $3::int) g returning id`,
        [workspace.workspace_id, fleet.companyId, people],
      );
      return rows.map((r) => Number(r.id));
    });
    const members = employees.map((id) => ({ employee_id: id }));
    const settled = (status: 'synced' | 'gone') =>
      withClient(db.url, (client) =>
        waitUntil(
          `every person is ${status} on the controller`,
          async () => {
            const {
              rows: [row],
            } = await client.query(
              status === 'synced'
                ? "select count(*)::int as n from device_user where device_id = $1 and present and sync_status = 'synced'"
                : "select (count(*) filter (where present or sync_status = 'pending'))::int as n from device_user where device_id = $1",
              [deviceId],
            );
            return row.n as number;
          },
          (n) => (status === 'synced' ? n === people : n === 0),
          600_000,
        ),
      );

    const phase = async (change: () => Promise<unknown>, status: 'synced' | 'gone'): Promise<Delivered> => {
      counting = { commands: 0, records: 0, bytes: 0, polls: 0, seconds: 0 };
      const began = Date.now();
      await change();
      await settled(status);
      return { ...counting, seconds: Number(((Date.now() - began) / 1000).toFixed(1)) };
    };
    const add = await phase(() => call(service.url, fleet.key, 'POST', `/public/v2/access_levels/${level.id}/employees`, members), 'synced');
    const remove = await phase(() => call(service.url, fleet.key, 'DELETE', `/public/v2/access_levels/${level.id}/employees`, members), 'gone');
    const result = { bench: 'access-level-sync', people, doors: 4, pollMs, add, remove };
    report(result, [
      `${people} people x 4 doors onto one access controller (MaxPackageSize=2048000, 5 commands a poll, poll every ${pollMs} ms):`,
      `  add:    ${add.commands} commands carrying ${add.records} records, ${add.bytes} bytes in ${add.polls} polls, ${add.seconds} s`,
      `  remove: ${remove.commands} commands carrying ${remove.records} records, ${remove.bytes} bytes in ${remove.polls} polls, ${remove.seconds} s`,
    ]);
  } finally {
    await terminal.stop();
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
