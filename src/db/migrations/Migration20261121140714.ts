import { Migration } from '@mikro-orm/migrations';

export class Migration20261121140714 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "webhook_endpoint" ("id" serial primary key, "workspace_id" int not null, "url" varchar(2048) not null, "description" varchar(500) not null default '', "event_types" text[] not null, "secret" varchar(100) not null, "enabled" boolean not null default true, "disabled_reason" text null, "failing_since" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "webhook_endpoint_workspace_index" on "webhook_endpoint" ("workspace_id");`);

    this.addSql(`create table "event_sequence" ("workspace_id" int not null, "last_sequence" bigint not null, constraint "event_sequence_pkey" primary key ("workspace_id"));`);

    this.addSql(`create table "event" ("id" bigserial primary key, "workspace_id" int not null, "sequence" bigint not null, "type" varchar(64) not null, "data" jsonb not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "event_created_at_index" on "event" ("created_at");`);
    this.addSql(`create index "event_workspace_id_index" on "event" ("workspace_id", "id");`);
    this.addSql(`alter table "event" add constraint "event_workspace_sequence_unique" unique ("workspace_id", "sequence");`);

    this.addSql(`create table "webhook_delivery" ("id" serial primary key, "workspace_id" int not null, "endpoint_id" int not null, "event_id" bigint not null, "status" text check ("status" in ('pending', 'succeeded', 'failed')) not null default 'pending', "attempt_count" int not null default 0, "next_attempt_at" timestamptz not null, "give_up_at" timestamptz not null, "created_at" timestamptz not null, "completed_at" timestamptz null);`);
    this.addSql(`create index "webhook_delivery_event_id_index" on "webhook_delivery" ("event_id");`);
    this.addSql(`create index "webhook_delivery_endpoint_index" on "webhook_delivery" ("endpoint_id", "id");`);
    this.addSql(`create index "webhook_delivery_due_index" on "webhook_delivery" ("status", "next_attempt_at");`);

    this.addSql(`create table "webhook_attempt" ("id" serial primary key, "delivery_id" int not null, "attempted_at" timestamptz not null, "status_code" int null, "duration_ms" int not null, "response_excerpt" text null, "error" text null, "succeeded" boolean not null);`);
    this.addSql(`create index "webhook_attempt_delivery_id_index" on "webhook_attempt" ("delivery_id");`);

    this.addSql(`alter table "webhook_endpoint" add constraint "webhook_endpoint_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "event_sequence" add constraint "event_sequence_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "event" add constraint "event_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoint" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_event_id_foreign" foreign key ("event_id") references "event" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_attempt" add constraint "webhook_attempt_delivery_id_foreign" foreign key ("delivery_id") references "webhook_delivery" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_delivery" drop constraint "webhook_delivery_endpoint_id_foreign";`);

    this.addSql(`alter table "webhook_delivery" drop constraint "webhook_delivery_event_id_foreign";`);

    this.addSql(`alter table "webhook_attempt" drop constraint "webhook_attempt_delivery_id_foreign";`);

    this.addSql(`drop table if exists "webhook_endpoint" cascade;`);

    this.addSql(`drop table if exists "event_sequence" cascade;`);

    this.addSql(`drop table if exists "event" cascade;`);

    this.addSql(`drop table if exists "webhook_delivery" cascade;`);

    this.addSql(`drop table if exists "webhook_attempt" cascade;`);
  }

}
