import { Migration } from '@mikro-orm/migrations';

/**
 * Command lanes: each command carries the priority of its lane (0 door actions, 1 other interactive
 * commands, 2 revocations, 3 bulk; existing commands are bulk), and the delivery index orders a
 * device's queued commands by it, then by queue order.
 */
export class Migration20261127031500 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "device_command" add column "priority" smallint not null default 3;`);
    this.addSql(`drop index "device_command_delivery_index";`);
    this.addSql(`create index "device_command_delivery_index" on "device_command" ("device_id", "status", "priority", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "device_command_delivery_index";`);
    this.addSql(`create index "device_command_delivery_index" on "device_command" ("device_id", "status", "id");`);
    this.addSql(`alter table "device_command" drop column "priority";`);
  }
}
