// The reference for bench/rest-read.ts: the smallest honest Express 5 + `pg` server for the same
// reads. Like Timegate it checks the key per request (SHA-256 of the bearer key looked up in
// api_key), reads the employee with its area ids, and reads punches of a date range in the
// workspace's time zone (newest first); it has no GraphQL layer, no ORM, no rate limit, request ids,
// metrics or audit, and answers the same JSON (snake_case, bare array for the lists).
import crypto from 'node:crypto';
import express, { type Request, type Response } from 'express';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
// An idle pooled connection closed by the server (the bench stopping PostgreSQL) is not a crash.
pool.on('error', () => undefined);
const app = express();
app.disable('x-powered-by');
app.set('etag', false);

const COLUMNS = `e.id, e.company_id, e.name, e.lastname, e.code, e.pin, e.email, e.is_active,
  coalesce((select array_agg(ae.area_id order by ae.area_id) from area_employee ae where ae.employee_id = e.id), '{}') as area_ids,
  e.created_at, e.updated_at`;

async function workspaceOf(req: Request, res: Response): Promise<number | null> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const hash = match ? crypto.createHash('sha256').update(match[1]!).digest('hex') : '';
  const { rows } = await pool.query('select workspace_id from api_key where key_hash = $1 and revoked_at is null', [hash]);
  if (rows.length === 0) {
    res.status(401).json({ error: { code: 'unauthenticated' } });
    return null;
  }
  return rows[0].workspace_id as number;
}

app.get('/healthz', (_req, res) => {
  res.send('ok');
});

app.get('/public/v2/employees/:id', async (req, res) => {
  const workspaceId = await workspaceOf(req, res);
  if (workspaceId === null) return;
  const { rows } = await pool.query(`select ${COLUMNS} from employee e where e.id = $1 and e.workspace_id = $2`, [Number(req.params.id), workspaceId]);
  if (rows.length === 0) res.status(404).json({ error: { code: 'not_found' } });
  else res.json(rows[0]);
});

app.get('/public/v2/employees', async (req, res) => {
  const workspaceId = await workspaceOf(req, res);
  if (workspaceId === null) return;
  const perPage = Math.min(1000, Number(req.query.per_page ?? 100));
  const { rows } = await pool.query(`select ${COLUMNS}, count(*) over () as total from employee e where e.workspace_id = $1 order by e.id limit $2`, [
    workspaceId,
    perPage,
  ]);
  res.setHeader('X-Total-Count', String(rows[0]?.total ?? 0));
  res.json(rows.map(({ total: _total, ...row }) => row));
});

// Punch ids are bigint (pg would answer strings): read as doubles, exact below 2^53, written as JSON numbers.
const PUNCH_COLUMNS = `p.id::float8 as id, p.company_id, p.employee_id, p.device_id, p.device_serial, p.pin, p.punch_time, p.local_time,
  p.time_zone, p.punch_state, p.verify_type, p.verify_code, p.record_type, p.work_code, p.device_record_index, p.received_at,
  p.voided_at, p.void_reason`;

app.get('/public/v2/punches', async (req, res) => {
  const workspaceId = await workspaceOf(req, res);
  if (workspaceId === null) return;
  const perPage = Math.min(1000, Number(req.query.per_page ?? 100));
  // Bare dates, both inclusive, read in the workspace's zone (as Timegate reads them).
  const { rows } = await pool.query(
    `select ${PUNCH_COLUMNS}, count(*) over () as total from punch p, workspace w
     where w.id = $1 and p.workspace_id = $1
       and p.punch_time >= $2::date::timestamp at time zone w.time_zone
       and p.punch_time < ($3::date + 1)::timestamp at time zone w.time_zone
     order by p.punch_time desc, p.id desc limit $4`,
    [workspaceId, String(req.query.start_date), String(req.query.end_date), perPage],
  );
  res.setHeader('X-Total-Count', String(rows[0]?.total ?? 0));
  res.json(rows.map(({ total: _total, ...row }) => row));
});

app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
