import { PERMISSIONS } from '../../entities/assignment.entity';
import { DomainError } from '../../errors/domain-error';
import { FieldChecker, limits } from './validation';

/** The most items one bulk request (assignments, area membership) may carry. */
export const MAX_BULK_ITEMS = limits.bulkItems;

/**
 * Checks the `items` array of a bulk operation and returns the ids it names (field `idField` of
 * each item). Problems name the item's position and id: `items.3.deviceId`.
 */
export function checkBulkItems<T extends object>(
  items: T[],
  idField: keyof T & string,
  options: { allowEmpty: boolean; permissionField?: keyof T & string },
): number[] {
  if (items.length === 0 && !options.allowEmpty) throw DomainError.field('items', 'empty', 'items must name at least one item.');
  if (items.length > MAX_BULK_ITEMS) {
    throw DomainError.field('items', 'too_many_items', `items may hold at most ${MAX_BULK_ITEMS} items (got ${items.length}); split the request.`);
  }
  const check = new FieldChecker();
  const seen = new Set<number>();
  items.forEach((item, index) => {
    const id = item[idField] as number;
    if (seen.has(id)) check.add(`items.${index}.${idField}`, 'duplicate', `${idField} ${id} appears more than once in items.`);
    seen.add(id);
    if (options.permissionField) {
      const permission = item[options.permissionField] as number;
      if (!(PERMISSIONS as readonly number[]).includes(permission)) {
        check.add(
          `items.${index}.${options.permissionField}`,
          'invalid_permission',
          `${options.permissionField} must be a terminal privilege: 0 (user), 2 (enroller), 6 (admin) or 14 (super admin); got ${permission}.`,
        );
      }
    }
  });
  check.done();
  return items.map((item) => item[idField] as number);
}

/** Field errors for ids that are unknown in the workspace (`not_found`) or belong to another company. */
export function checkBulkOwners(
  ids: number[],
  idField: string,
  resource: 'Device' | 'Employee',
  companyOf: Map<number, number>,
  expected: { companyId: number; owner: string },
): void {
  const check = new FieldChecker();
  ids.forEach((id, index) => {
    const companyId = companyOf.get(id);
    if (companyId === undefined) {
      check.add(`items.${index}.${idField}`, 'not_found', `${resource} ${id} does not exist in this workspace.`);
    } else if (companyId !== expected.companyId) {
      check.add(
        `items.${index}.${idField}`,
        'cross_company',
        `${resource} ${id} belongs to company ${companyId}, not to company ${expected.companyId} of ${expected.owner}: employees are only sent to devices of their own company.`,
      );
    }
  });
  check.done();
}
