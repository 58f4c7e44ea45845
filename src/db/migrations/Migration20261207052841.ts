import { Migration } from '@mikro-orm/migrations';

export class Migration20261207052841 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "quarantined_punch" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "device_id" int null, "device_serial" varchar(64) not null, "pin" varchar(64) not null, "local_time" varchar(19) not null, "time_zone" varchar(64) not null, "punch_time" timestamptz not null, "reason" text check ("reason" in ('before_2000', 'ahead_of_terminal_clock', 'ahead_of_server_time')) not null, "clock_skew_seconds" int null, "punch_state" varchar(16) not null, "verify_type" varchar(64) null, "verify_code" int null, "work_code" varchar(32) null, "device_record_index" int null, "received_at" timestamptz not null);`);
    this.addSql(`create index "quarantined_punch_device_index" on "quarantined_punch" ("device_id");`);
    this.addSql(`create index "quarantined_punch_workspace_index" on "quarantined_punch" ("workspace_id", "id");`);
    this.addSql(`alter table "quarantined_punch" add constraint "quarantined_punch_record_key" unique ("workspace_id", "device_serial", "pin", "local_time");`);

    this.addSql(`alter table "quarantined_punch" add constraint "quarantined_punch_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "quarantined_punch" add constraint "quarantined_punch_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "quarantined_punch" add constraint "quarantined_punch_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete set null;`);

    // SCIM lists filter in SQL (src/services/provisioning/scim-filter-sql.ts) over a search copy
    // of each document: names and strings in lower case (strings of caseExact attributes kept).
    // Written by the service from now on; rows stored before are filled here once, lowered by
    // PostgreSQL's lower() (the service lowers as JavaScript does; they differ only outside ASCII
    // on a server whose collation does not know the letter).
    this.addSql(`create function scim_search_backfill(j jsonb) returns jsonb language plpgsql immutable as $$
      declare result jsonb; k text; v jsonb;
      begin
        case jsonb_typeof(j)
          when 'object' then
            result := '{}'::jsonb;
            for k, v in select key, value from jsonb_each(j) loop
              if not jsonb_exists(result, lower(k)) then result := result || jsonb_build_object(lower(k), scim_search_backfill(v)); end if;
            end loop;
            return result;
          when 'array' then
            return coalesce((select jsonb_agg(scim_search_backfill(e) order by n) from jsonb_array_elements(j) with ordinality as t(e, n)), '[]'::jsonb);
          when 'string' then return to_jsonb(lower(j #>> '{}'));
          else return j;
        end case;
      end $$;`);
    this.addSql(`alter table "scim_user" add column "search" jsonb null;`);
    this.addSql(`update "scim_user" set "search" = (scim_search_backfill("document") - 'active') || case when "external_id" is null then '{}'::jsonb else jsonb_build_object('externalid', "external_id") end;`);
    this.addSql(`alter table "scim_user" alter column "search" set not null;`);
    this.addSql(`create index "scim_user_company_external_id_index" on "scim_user" ("company_id", "external_id");`);
    this.addSql(`create index "scim_user_company_search_user_name_index" on "scim_user" ("company_id", ("search" ->> 'username'));`);

    this.addSql(`alter table "scim_group" add column "search" jsonb null;`);
    this.addSql(`update "scim_group" set "search" = scim_search_backfill("document") || jsonb_build_object('displayname', lower("display_name"));`);
    this.addSql(`alter table "scim_group" alter column "search" set not null;`);
    this.addSql(`drop function scim_search_backfill(jsonb);`);

    // What a filter reads at a path (RFC 7644 3.4.2.2, as src/scim/filter-eval.ts reads it): a
    // value as a list of entries; the entries' sub-attribute, or, with none, each entry's "value"
    // (an object) or the entry itself; and a value as a number, as JavaScript's Number() reads it
    // (null when it is none).
    this.addSql(`create function scim_entries(val jsonb) returns jsonb language sql immutable parallel safe as $$
      select case when val is null or jsonb_typeof(val) = 'null' then '[]'::jsonb when jsonb_typeof(val) = 'array' then val else jsonb_build_array(val) end $$;`);
    this.addSql(`create function scim_values(val jsonb, sub text) returns setof jsonb language sql immutable parallel safe as $$
      select case when sub is null then (case when jsonb_typeof(e) = 'object' then e -> 'value' else e end) else e -> sub end
      from jsonb_array_elements(scim_entries(val)) as t(e)
      where case when sub is null then jsonb_typeof(e) <> 'object' or jsonb_exists(e, 'value')
                 else jsonb_typeof(e) = 'object' and coalesce(jsonb_typeof(e -> sub), 'null') <> 'null' end $$;`);
    this.addSql(`create function scim_number(v jsonb) returns numeric language sql immutable parallel safe as $$
      select case jsonb_typeof(v)
        when 'number' then (v #>> '{}')::numeric
        when 'boolean' then case when v = 'true'::jsonb then 1 else 0 end
        when 'null' then 0
        when 'string' then case
          when btrim(v #>> '{}', ' ' || chr(9) || chr(10) || chr(13)) = '' then 0
          when btrim(v #>> '{}', ' ' || chr(9) || chr(10) || chr(13)) ~ '^[+-]{0,1}([0-9]+[.]{0,1}[0-9]*|[.][0-9]+)([eE][+-]{0,1}[0-9]{1,3}){0,1}$'
            then btrim(v #>> '{}', ' ' || chr(9) || chr(10) || chr(13))::numeric
          end
        end $$;`);
    this.addSql(`create index "scim_group_company_search_display_name_index" on "scim_group" ("company_id", ("search" ->> 'displayname'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "quarantined_punch" cascade;`);
    this.addSql(`drop function scim_number(jsonb);`);
    this.addSql(`drop function scim_values(jsonb, text);`);
    this.addSql(`drop function scim_entries(jsonb);`);

    this.addSql(`drop index "scim_group_company_search_display_name_index";`);
    this.addSql(`alter table "scim_group" drop column "search";`);

    this.addSql(`drop index "scim_user_company_external_id_index";`);
    this.addSql(`drop index "scim_user_company_search_user_name_index";`);
    this.addSql(`alter table "scim_user" drop column "search";`);
  }

}
