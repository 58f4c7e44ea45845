import { Migration } from '@mikro-orm/migrations';

/**
 * Diagnosable actions: door and device actions carry the reason they are where they are
 * (`status_detail`, a code of src/services/action-status-detail.ts), once concluded, retried or
 * verifying a clock; the codes of waiting actions are computed when read.
 */
export class Migration20261127033000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "door_action" add column "status_detail" varchar(32) null;`);
    this.addSql(`alter table "device_action" add column "status_detail" varchar(32) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "door_action" drop column "status_detail";`);
    this.addSql(`alter table "device_action" drop column "status_detail";`);
  }
}
