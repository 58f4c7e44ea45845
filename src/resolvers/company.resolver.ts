import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { effectivePolicy } from '../services/attendance/pay-rules';
import type { Company } from '../entities';
import * as companies from '../services/directory/company.service';
import type { RequestContext } from '../context/request-context';
import { CompanyConnection, CompanyType, CreateCompanyInput, UpdateCompanyInput } from '../schema/company.type';
import { ConnectionArgs, pageRequest, toConnection } from '../schema/connection';

@Resolver(() => CompanyType)
export class CompanyResolver {
  @FieldResolver({ description: "How the company's worked minutes become pay items: its own settings over the defaults." })
  payPolicy(@Root() company: Company) {
    return effectivePolicy(company.payPolicy, null);
  }

  @FieldResolver()
  settings(@Root() company: Company) {
    return companies.companySettings(company);
  }

  @Authorized('read')
  @Query(() => CompanyType, { description: 'The company with this id; one of another workspace, or none, answers `not_found`.' })
  company(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The company's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return companies.getCompany(ctx, id);
  }

  @Authorized('read')
  @Query(() => CompanyConnection, { description: "The workspace's companies, a page at a time (`first`, `after`)." })
  async companies(@Ctx() ctx: RequestContext, @Args() args: ConnectionArgs) {
    return toConnection(await companies.listCompanies(ctx, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => CompanyType, {
    description:
      'Creates a company and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createCompany(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateCompanyInput,
  ) {
    return companies.createCompany(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => CompanyType, {
    description:
      'Changes a company and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateCompany(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The company's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateCompanyInput,
  ) {
    return companies.updateCompany(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => CompanyType, { description: 'Refused (resource_in_use) while the company owns employees or devices.' })
  deleteCompany(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The company's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return companies.deleteCompany(ctx, id);
  }
}
