import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox and punch tables stop referencing the workspace row with a constraint: every writer of a
 * workspace locked that one row (docs/decisions.md, "Ingestion: no foreign key to the workspace").
 */
export class Migration20261121165930 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "event" drop constraint "event_workspace_id_foreign";`);

    this.addSql(`alter table "punch" drop constraint "punch_workspace_id_foreign";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "event" add constraint "event_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "punch" add constraint "punch_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
  }

}
