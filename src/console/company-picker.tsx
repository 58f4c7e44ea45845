// The company a page works on: the first one until another is chosen (HR pages are per company).
import { useState } from 'preact/hooks';
import { useQuery } from '@urql/preact';
import { CompaniesDocument } from './gql';

export function useCompanyPicker(id: string): { companyId: number; picker: preact.JSX.Element } {
  const [companies] = useQuery({ query: CompaniesDocument });
  const [chosen, setChosen] = useState('');
  const list = companies.data?.companies.nodes ?? [];
  const companyId = Number(chosen || list[0]?.id || 0);
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
