import { Migration } from '@mikro-orm/migrations';

/** Voided punches: kept and listed, no longer counted in attendance (issue 13). */
export class Migration20261125051029 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "punch" add column "voided_at" timestamptz null, add column "void_reason" varchar(500) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "punch" drop column "voided_at", drop column "void_reason";`);
  }

}
