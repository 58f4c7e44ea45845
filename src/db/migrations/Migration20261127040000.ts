import { Migration } from '@mikro-orm/migrations';

/**
 * Pending door and device actions by device: what the per-terminal bound counts at every action
 * created, and where the clock.sync check finds the actions waiting for a clock reading.
 */
export class Migration20261127040000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "door_action_pending_index" on "door_action" ("device_id") where "status" in ('queued', 'sent');`);
    this.addSql(`create index "device_action_pending_index" on "device_action" ("device_id", "type") where "status" in ('queued', 'sent');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "door_action_pending_index";`);
    this.addSql(`drop index "device_action_pending_index";`);
  }
}
