import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as employees from '../services/directory/employee.service';
import { pageRequest, toConnection } from '../schema/connection';
import { templatesOfEmployee } from '../services/sync/employee-template.service';
import { EmployeeTemplateType } from '../schema/employee-template.type';
import { templateView } from './employee-template.resolver';
import { CreateEmployeeInput, EmployeeConnection, EmployeesArgs, EmployeeType, UpdateEmployeeInput } from '../schema/employee.type';

@Resolver(() => EmployeeType)
export class EmployeeResolver {
  @Authorized('read')
  @Query(() => EmployeeType, { description: 'The employee with this id; one of another workspace, or none, answers `not_found`.' })
  employee(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The employee's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return employees.readEmployee(ctx, id);
  }

  @Authorized('read')
  @Query(() => EmployeeConnection, { description: "The workspace's employees, a page at a time (`first`, `after`)." })
  async employees(@Ctx() ctx: RequestContext, @Args() { companyId, isActive, search, ids, ...page }: EmployeesArgs) {
    const filter = { companyId: companyId ?? undefined, isActive: isActive ?? undefined, search: search ?? undefined, ids: ids ?? undefined };
    return toConnection(await employees.listEmployees(ctx, filter, pageRequest(page)));
  }

  @FieldResolver(() => [EmployeeTemplateType], { description: 'Biometric templates enrolled on terminals (metadata only).' })
  async templates(@Ctx() ctx: RequestContext, @Root() employee: EmployeeType) {
    return (await templatesOfEmployee(ctx, employee.id)).map(templateView);
  }

  @Authorized('write')
  @Mutation(() => EmployeeType, {
    description:
      'Creates an employee and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  async createEmployee(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateEmployeeInput,
  ) {
    const [employee] = await employees.employeeViews(ctx, [await employees.createEmployee(ctx, input)]);
    return employee;
  }

  @Authorized('write')
  @Mutation(() => EmployeeType, {
    description:
      'Changes an employee and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  async updateEmployee(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The employee's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateEmployeeInput,
  ) {
    const [employee] = await employees.employeeViews(ctx, [await employees.updateEmployee(ctx, id, input)]);
    return employee;
  }

  @Authorized('write')
  @Mutation(() => EmployeeType, {
    description:
      'Deletes an employee. One with punches or attendance days is marked deleted instead: gone from lists and terminals, code and pin free, history kept (locked days unchanged).',
  })
  async deleteEmployee(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The employee's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    const [employee] = await employees.employeeViews(ctx, [await employees.deleteEmployee(ctx, id)]);
    return employee;
  }
}
