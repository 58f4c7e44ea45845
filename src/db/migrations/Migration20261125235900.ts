import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook attempts join the partitioned history, and deliveries and attempts get 64-bit ids.
 *
 * `webhook_attempt` is an append-only log (one row per HTTP request to a receiver, retries
 * included): it becomes a table partitioned by month of `attempted_at`, converted in place like the
 * tables of Migration20261125183000 (renamed, the partitioned table created under the old name with
 * a partition per month that holds rows and per month from last month to three ahead, rows copied
 * with their ids, old table dropped). Its key gains the partition column: (id, attempted_at). It
 * keeps its foreign key to `webhook_delivery` (a partitioned table may reference a plain one), so
 * deleting a delivery still deletes its attempts.
 *
 * `webhook_delivery.id` (one per event and endpoint) and `webhook_attempt.id` become `bigint`, with
 * their sequences.
 */
export class Migration20261125235900 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`set local time zone 'UTC';`);
    this.addSql(`alter table "webhook_attempt" drop constraint "webhook_attempt_delivery_id_foreign";`);
    this.addSql(`alter sequence "webhook_delivery_id_seq" as bigint;`);
    this.addSql(`alter table "webhook_delivery" alter column "id" type bigint;`);

    const old = 'webhook_attempt_unpartitioned';
    this.addSql(`alter table "webhook_attempt" rename to "${old}";`);
    this.addSql(`alter table "${old}" drop constraint "webhook_attempt_pkey";`);
    this.addSql(`drop index "webhook_attempt_delivery_id_index";`);
    this.addSql(`alter sequence "webhook_attempt_id_seq" owned by none;`);
    this.addSql(`alter sequence "webhook_attempt_id_seq" as bigint;`);
    this.addSql(`
      create table "webhook_attempt" (
        "id" bigint not null default nextval('webhook_attempt_id_seq'),
        "delivery_id" bigint not null,
        "attempted_at" timestamptz not null,
        "status_code" int null,
        "duration_ms" int not null,
        "response_excerpt" text null,
        "error" text null,
        "succeeded" boolean not null,
        constraint "webhook_attempt_pkey" primary key ("id", "attempted_at")
      ) partition by range ("attempted_at");`);
    this.addSql(`alter sequence "webhook_attempt_id_seq" owned by "webhook_attempt"."id";`);
    this.addSql(`create table "webhook_attempt_default" partition of "webhook_attempt" default;`);
    this.addSql(`
      do $$
      declare month timestamptz;
      begin
        for month in
          select distinct date_trunc('month', "attempted_at") from "${old}"
           where "attempted_at" >= '2000-01-01' and "attempted_at" < now() + interval '1 year'
          union
          select date_trunc('month', now()) + make_interval(months => k) from generate_series(-1, 3) k
        loop
          execute format('create table %I partition of %I for values from (%L) to (%L)',
            'webhook_attempt_y' || to_char(month, 'YYYY"m"MM'), 'webhook_attempt', month, month + interval '1 month');
        end loop;
      end $$;`);
    this.addSql(`insert into "webhook_attempt" select * from "${old}";`);
    this.addSql(`drop table "${old}";`);
    this.addSql(`create index "webhook_attempt_delivery_id_index" on "webhook_attempt" ("delivery_id");`);
    this.addSql(`alter table "webhook_attempt" add constraint "webhook_attempt_delivery_id_foreign" foreign key ("delivery_id") references "webhook_delivery" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    throw new Error('Migration20261125235900 (partitioned webhook attempts, 64-bit delivery ids) cannot be undone; restore the backup taken before the upgrade.');
  }

}
