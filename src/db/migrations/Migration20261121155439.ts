import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox stops numbering events through a per-workspace counter row (a lock every writer of a
 * workspace waited on): event ids are drawn from the writing transaction id (src/events/outbox.ts).
 * Existing ids are far below any new one (a transaction id shifted left by 20 bits), so the order
 * of old and new events is kept.
 */
export class Migration20261121155439 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`drop table if exists "event_sequence" cascade;`);

    this.addSql(`alter table "event" drop constraint "event_workspace_sequence_unique";`);
    this.addSql(`alter table "event" drop column "sequence";`);

    this.addSql(`alter table "event" alter column "id" drop default;`);
    this.addSql(`drop sequence if exists "event_id_seq";`);

    // Called by the outbox only when one transaction would record more than 2^20 events.
    this.addSql(`create or replace function timegate_event_rank_overflow() returns bigint language plpgsql volatile as $$
      begin
        raise exception 'one transaction cannot record more than 1048576 events' using errcode = 'program_limit_exceeded';
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists timegate_event_rank_overflow();`);

    this.addSql(`create sequence if not exists "event_id_seq";`);
    this.addSql(`select setval('event_id_seq', greatest((select max("id") from "event"), 1));`);
    this.addSql(`alter table "event" alter column "id" set default nextval('event_id_seq');`);

    this.addSql(`alter table "event" add column "sequence" int8 null;`);
    this.addSql(`update "event" set "sequence" = numbered.n from (select id, row_number() over (partition by workspace_id order by id) as n from "event") numbered where numbered.id = "event".id;`);
    this.addSql(`alter table "event" alter column "sequence" set not null;`);
    this.addSql(`alter table "event" add constraint "event_workspace_sequence_unique" unique ("workspace_id", "sequence");`);

    this.addSql(`create table "event_sequence" ("workspace_id" int4 not null, "last_sequence" int8 not null, constraint "event_sequence_pkey" primary key ("workspace_id"));`);
    this.addSql(`alter table "event_sequence" add constraint "event_sequence_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`insert into "event_sequence" ("workspace_id", "last_sequence") select "workspace_id", max("sequence") from "event" group by "workspace_id";`);
  }

}
