import { Migration } from '@mikro-orm/migrations';

export class Migration20261127053827 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "console_sign_in" ("state" varchar(64) not null, "code_verifier" varchar(128) not null, "nonce" varchar(64) not null, "created_at" timestamptz not null, constraint "console_sign_in_pkey" primary key ("state"));`);

    this.addSql(`create table "console_session" ("id" serial primary key, "workspace_id" int not null, "token_hash" varchar(64) not null, "subject" varchar(255) not null, "email" varchar(320) null, "name" varchar(200) null, "roles" text[] not null, "scopes" text[] not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "ended_at" timestamptz null);`);
    this.addSql(`create index "console_session_workspace_id_index" on "console_session" ("workspace_id");`);
    this.addSql(`alter table "console_session" add constraint "console_session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "console_session_expires_at_index" on "console_session" ("expires_at");`);

    this.addSql(`alter table "console_session" add constraint "console_session_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "audit_event" add column "actor_subject" varchar(255) null, add column "actor_email" varchar(320) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "console_sign_in" cascade;`);

    this.addSql(`drop table if exists "console_session" cascade;`);

    this.addSql(`alter table "audit_event" drop column "actor_subject", drop column "actor_email";`);
  }

}
