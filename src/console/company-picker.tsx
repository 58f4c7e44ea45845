// The company a page works on: the first one (or the one its address names) until another is chosen
// (HR pages are per company).
import { useState } from 'preact/hooks';
import { useQuery } from '@urql/preact';
import { CompaniesDocument } from './gql';

/** `initial`: the company to start with (a link from another page carries it); one not listed is ignored. */
export function useCompanyPicker(id: string, initial?: number): { companyId: number; picker: preact.JSX.Element } {
  const [companies] = useQuery({ query: CompaniesDocument });
  const [chosen, setChosen] = useState(initial ? String(initial) : '');
  const list = companies.data?.companies.nodes ?? [];
  const companyId = Number(list.find((c) => String(c.id) === chosen)?.id ?? list[0]?.id ?? 0);
  const picker = (
    <p class="field">
      <label for={id}>Company</label>
      <select id={id} value={String(companyId)} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
        {list.map((c) => (
          <option value={c.id}>{c.name}</option>
        ))}
      </select>
    </p>
  );
  return { companyId, picker };
}
