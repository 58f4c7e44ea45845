import { expect } from 'chai';
import { camelToSnake, renameKeys, renameTopKeys, snakeToCamel } from '../../../src/kernel/case';

describe('case conversion (REST snake_case, GraphQL camelCase)', () => {
  it('converts names both ways, digits included', () => {
    expect(snakeToCamel('start_date')).to.equal('startDate');
    expect(snakeToCamel('door_2_name')).to.equal('door2Name');
    expect(camelToSnake('startDate')).to.equal('start_date');
    expect(camelToSnake('fingerprintsOnDevice')).to.equal('fingerprints_on_device');
    expect(camelToSnake(snakeToCamel('pending_overtime_minutes'))).to.equal('pending_overtime_minutes');
  });

  it('renames keys deeply through arrays, keeping values (dates and strings) as they are', () => {
    const at = new Date('2026-11-27T09:00:00Z');
    expect(renameKeys({ doorIds: [1], nested: [{ validFrom: at, name: 'camelCase stays' }] }, camelToSnake)).to.deep.equal({
      door_ids: [1],
      nested: [{ valid_from: at, name: 'camelCase stays' }],
    });
  });

  it('renames only the top level of an event payload', () => {
    expect(renameTopKeys({ usersReported: 3, templates: { facesOnDevice: 1 } }, camelToSnake)).to.deep.equal({
      users_reported: 3,
      templates: { facesOnDevice: 1 },
    });
    expect(renameTopKeys(null, camelToSnake)).to.equal(null);
    expect(renameTopKeys([{ a_b: 1 }], snakeToCamel)).to.deep.equal([{ a_b: 1 }]);
  });
});
