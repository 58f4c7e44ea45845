import { Migration } from '@mikro-orm/migrations';

export class Migration20261207060820 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "linkage_rule" alter column "lockdown_door_ids" type int[] using "lockdown_door_ids"::int[];`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "linkage_rule" alter column "lockdown_door_ids" type text[] using "lockdown_door_ids"::text[];`);
  }

}
