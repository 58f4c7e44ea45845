import { Migration } from '@mikro-orm/migrations';

export class Migration20261207092532 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "event" add column "trace" varchar(55) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "event" drop column "trace";`);
  }

}
