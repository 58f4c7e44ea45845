import { Migration } from '@mikro-orm/migrations';

export class Migration20261125155600 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "device" add column "access_tables_refused" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "device" drop column "access_tables_refused";`);
  }

}
