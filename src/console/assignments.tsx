// Who works what, as Shifts and Rosters both show it: "assign to a person or everyone in an area,
// from a date" described as fields of the one entity form, and the list of assignments with a
// removal that asks first. The page supplies what is assigned (a shift, a roster) and the mutations.
import { ConfirmButton } from './components';
import { choices, type Field, type Values } from './entity-form';
import { EntityList } from './entity-list';
import { today } from './format';
import { usePeopleById } from './people';

/** The fields of an assignment: the item (`itemLabel`, e.g. "Shift"), a person or an area, the dates. */
export function assignmentFields(
  itemLabel: string,
  items: Array<{ id: number; name: string }>,
  areas: Array<{ id: number; name: string }>,
  companyId: number,
): Field[] {
  return [
    { name: 'itemId', label: itemLabel, kind: 'select', options: choices(items) },
    {
      name: 'to',
      label: 'Assign to',
      kind: 'radio',
      options: [
        { value: 'person', label: 'A person' },
        { value: 'area', label: 'Everyone in an area' },
      ],
    },
    { name: 'employeeId', label: 'Person', kind: 'person', companyId, when: (v) => v.to === 'person' },
    { name: 'areaId', label: 'Area', kind: 'select', options: choices(areas), when: (v) => v.to === 'area' },
    { name: 'startDate', label: 'From', kind: 'date', required: true, row: 'dates' },
    { name: 'endDate', label: 'Until (optional)', kind: 'date', row: 'dates' },
  ];
}

export const assignmentStart = (): Values => ({ itemId: '', to: 'person', employeeId: '', areaId: '', startDate: today(), endDate: '' });

/** Nothing to assign, or nobody to assign it to. */
export const cannotAssign = (v: Values): boolean => !v.itemId || (v.to === 'person' ? !v.employeeId : !v.areaId);

/** The values as the API's assignment input, but for the item's own field. */
export function assignmentInput(v: Values): { employeeId?: number; areaId?: number; startDate: string; endDate: string | null } {
  const target = v.to === 'person' ? { employeeId: Number(v.employeeId) } : { areaId: Number(v.areaId) };
  return { ...target, startDate: v.startDate as string, endDate: (v.endDate as string) || null };
}

interface Assignment {
  id: number;
  employeeId?: number | null;
  areaId?: number | null;
  startDate: string;
  endDate?: string | null;
}

/** The assignments of the page's items: who (by name, looked up by id at any size), what, from, until; removing asks first. */
export function AssignmentList<A extends Assignment>({
  title,
  itemHeader,
  empty,
  assignments,
  itemName,
  areas,
  removeTitle,
  onRemove,
}: {
  title: string;
  itemHeader: string;
  empty: string;
  assignments: A[];
  itemName: (a: A) => string;
  areas: Array<{ id: number; name: string }>;
  removeTitle: string;
  /** Absent: read-only. */
  onRemove?: (a: A) => Promise<void>;
}) {
  const people = usePeopleById();
  const who = (a: A) => {
    if (a.employeeId) {
      const e = people.person(a.employeeId);
      return e ? `${e.name} ${e.lastname}` : people.answered(a.employeeId) ? 'a person no longer employed' : '…';
    }
    return `everyone in ${areas.find((x) => x.id === a.areaId)?.name ?? 'an area'}`;
  };
  return (
    <EntityList
      title={title}
      rows={assignments}
      empty={empty}
      rowData={(a) => ({ assignment: a.id })}
      columns={[
        { header: 'Who', cell: who },
        { header: itemHeader, cell: itemName },
        { header: 'From', cell: (a) => a.startDate },
        { header: 'Until', cell: (a) => a.endDate ?? 'open-ended' },
      ]}
      actions={
        onRemove
          ? (a) => (
              <ConfirmButton
                label="Remove"
                labelDetail={`${itemName(a)} for ${who(a)}`}
                title={removeTitle}
                confirm="Remove assignment"
                onConfirm={() => onRemove(a)}
              >
                <p>
                  {who(a)} will no longer work {itemName(a)} from {a.startDate}; their days follow the shift that applies instead (an area's or the company
                  default).
                </p>
              </ConfirmButton>
            )
          : undefined
      }
    />
  );
}
