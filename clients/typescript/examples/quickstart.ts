// Create a sandbox workspace, then read it through both APIs.
import { createGraphQLClient, createRestClient, EmployeesDocument } from '@timegate/client';

const baseUrl = process.env.TIMEGATE_URL ?? 'http://localhost:8080';

async function main() {
  // The operator's master key creates a sandbox: a `tg_test_` key and the ids it was seeded with.
  const operator = createRestClient({ baseUrl, apiKey: process.env.TIMEGATE_MASTER_KEY! });
  const created = await operator.POST('/public/v2/workspaces', { body: { sandbox: true } });
  if (created.error) throw new Error(`sandbox not created: ${created.error.error.message}`);
  const apiKey = created.data.api_key.key!; // shown once, at creation
  const companyId = created.data.sandbox!.company_id;

  // GraphQL: typed documents, typed variables, typed answers.
  const graphql = createGraphQLClient({ baseUrl, apiKey });
  const { employees } = await graphql.request(EmployeesDocument, { companyId, first: 10 });
  console.log(`${employees.totalCount} employees:`, employees.nodes.map((e) => `${e.name} ${e.lastname}`).join(', '));

  // REST: paths, parameters and bodies checked against openapi.json.
  const rest = createRestClient({ baseUrl, apiKey });
  const { data: employee, error } = await rest.GET('/public/v2/employees/{id}', { params: { path: { id: employees.nodes[0].id } } });
  if (error) throw new Error(error.error.message);
  console.log(`employee ${employee.id} has pin ${employee.pin}`);
  console.log(JSON.stringify({ apiKey, companyId }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
