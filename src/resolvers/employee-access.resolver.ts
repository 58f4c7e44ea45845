import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Bounded } from '../schema/bounds';
import type { RequestContext } from '../context/request-context';
import { EmployeeAccessTokenType, EmployeeInvitationType } from '../schema/self-service.type';
import * as access from '../services/identity/employee-access.service';

/** How employees get into self-service: invitation links and employee tokens, given by a `write` key. */
@Resolver()
export class EmployeeAccessResolver {
  @Authorized('write')
  @Mutation(() => EmployeeInvitationType, {
    description: 'A one-time link to the self-service app for the employee, valid 7 days; the newest link of an employee is the only one that works.',
  })
  createEmployeeInvitation(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: 'The employee to invite: one not of this workspace is `not_found`, an inactive one `inactive`.' })
    employeeId: number,
  ) {
    return access.createEmployeeInvitation(ctx, employeeId);
  }

  @Authorized('write')
  @Mutation(() => EmployeeAccessTokenType, { description: 'A token that acts as the employee (`tg_emp_…`), shown once in `token`.' })
  async createEmployeeAccessToken(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: 'The employee the token acts as: one not of this workspace is `not_found`, an inactive one `inactive`.' })
    employeeId: number,
    @Arg('name', () => String, { nullable: true, description: 'What it is for (at most 200 characters).' }) @Bounded('apiKeyName') name?: string | null,
  ) {
    const issued = await access.issueEmployeeAccessToken(ctx, employeeId, name);
    return { ...issued.accessToken, token: issued.token };
  }

  @Authorized('write')
  @Query(() => [EmployeeAccessTokenType], { description: "The employee's tokens, revoked ones included (never their secrets)." })
  employeeAccessTokens(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: 'The employee id; one not of this workspace is `not_found`.' }) employeeId: number,
  ) {
    return access.listEmployeeAccessTokens(ctx, employeeId);
  }

  @Authorized('write')
  @Mutation(() => EmployeeAccessTokenType, {
    description: 'Revokes an employee token: it stops working at once in this process, within TIMEGATE_KEY_CACHE_MS in others.',
  })
  revokeEmployeeAccessToken(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: 'The employee the token acts as; one not of this workspace is `not_found`.' }) employeeId: number,
    @Arg('id', () => Int, { description: "The token's id (not its secret); one not of this employee is `not_found`. Revoking it twice changes nothing." })
    id: number,
  ) {
    return access.revokeEmployeeAccessToken(ctx, employeeId, id);
  }
}
