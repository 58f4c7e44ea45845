import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { EmployeeTemplate } from '../entities';
import type { RequestContext } from '../context/request-context';
import * as templates from '../services/sync/employee-template.service';
import { BIOMETRIC_TYPES, BiometricType, EmployeeTemplateType, TemplateFormat } from '../schema/employee-template.type';

const FORMATS = [TemplateFormat.zk, TemplateFormat.iso, TemplateFormat.ansi];

/** The API view of a stored template: everything but the template data. */
export function templateView(t: EmployeeTemplate): EmployeeTemplateType {
  return {
    id: t.id,
    employeeId: t.employeeId,
    type: BIOMETRIC_TYPES[t.type] ?? BiometricType.generic,
    index: t.no,
    subIndex: t.subIndex,
    version: t.version ?? null,
    format: FORMATS[t.format] ?? TemplateFormat.zk,
    valid: t.valid,
    duress: t.duress,
    size: t.size,
    sourceDeviceId: t.sourceDeviceId ?? null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

@Resolver(() => EmployeeTemplateType)
export class EmployeeTemplateResolver {
  @Authorized('read')
  @Query(() => [EmployeeTemplateType], { description: "An employee's biometric templates (metadata)." })
  async employeeTemplates(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
  ) {
    return (await templates.listEmployeeTemplates(ctx, employeeId)).map(templateView);
  }

  @Authorized('write')
  @Mutation(() => EmployeeTemplateType, { description: 'Deletes a template and removes it from every terminal that may hold it.' })
  async deleteEmployeeTemplate(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The employee template's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return templateView(await templates.deleteEmployeeTemplate(ctx, id));
  }
}
