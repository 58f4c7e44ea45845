import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { effectivePolicy } from '../services/attendance/pay-rules';
import type { Company } from '../entities';
import * as companies from '../services/directory/company.service';
import type { RequestContext } from '../context/request-context';
import { CompanyConnection, CompanyType, CreateCompanyInput, UpdateCompanyInput } from '../schema/company.type';
import { ConnectionArgs, pageRequest, toConnection } from '../schema/connection';

@Resolver(() => CompanyType)
export class CompanyResolver {
  @FieldResolver()
  payPolicy(@Root() company: Company) {
    return effectivePolicy(company.payPolicy, null);
  }

  @FieldResolver()
  settings(@Root() company: Company) {
    return companies.companySettings(company);
  }

  @Authorized('read')
  @Query(() => CompanyType)
  company(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return companies.getCompany(ctx, id);
  }

  @Authorized('read')
  @Query(() => CompanyConnection)
  async companies(@Ctx() ctx: RequestContext, @Args() args: ConnectionArgs) {
    return toConnection(await companies.listCompanies(ctx, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => CompanyType)
  createCompany(@Ctx() ctx: RequestContext, @Arg('input') input: CreateCompanyInput) {
    return companies.createCompany(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => CompanyType)
  updateCompany(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateCompanyInput) {
    return companies.updateCompany(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => CompanyType, { description: 'Refused (resource_in_use) while the company owns employees or devices.' })
  deleteCompany(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return companies.deleteCompany(ctx, id);
  }
}
