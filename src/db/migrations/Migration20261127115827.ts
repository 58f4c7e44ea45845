import { Migration } from '@mikro-orm/migrations';

export class Migration20261127115827 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "door_workspace_device_number_index" on "door" ("workspace_id", "device_id", "number");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "door_workspace_device_number_index";`);
  }

}
