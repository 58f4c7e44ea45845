import { Migration } from '@mikro-orm/migrations';

export class Migration20261207082246 extends Migration {

  override async up(): Promise<void> {
    // Added by hand to the generated migration (MikroORM does not manage extensions): the trigram
    // operators of the employee search index. pg_trgm is a trusted extension (PostgreSQL 13+): the
    // owner of the database may create it without being a superuser.
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create index "employee_search_trgm_index" on "employee" using gin (("name" || E'\\x01' || "lastname" || E'\\x01' || "code" || E'\\x01' || coalesce("pin", '') || E'\\x01' || coalesce("email", '')) gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "employee_search_trgm_index";`);
  }

}
