import { Migration } from '@mikro-orm/migrations';

export class Migration20261127054043 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "door_event_workspace_time_index" on "door_event" ("workspace_id", "time", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "door_event_workspace_time_index";`);
  }

}
