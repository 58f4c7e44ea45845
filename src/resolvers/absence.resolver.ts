import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as types from '../services/leave/absence-type.service';
import * as requests from '../services/leave/absence-request.service';
import { pageRequest, toConnection } from '../schema/connection';
import {
  AbsenceBalanceType,
  AbsenceRequestConnection,
  AbsenceRequestListArgs,
  AbsenceRequestType,
  absenceRequestObject,
  AbsenceTypeConnection,
  AbsenceTypeListArgs,
  AbsenceTypeType,
  CreateAbsenceRequestInput,
  CreateAbsenceTypeInput,
  UpdateAbsenceTypeInput,
} from '../schema/absence.type';
import type { AbsenceRequest } from '../entities';
import { Bounded, maxChars } from '../schema/bounds';

const requestObject = (request: AbsenceRequest) => absenceRequestObject(requests.absenceRequestData(request));

@Resolver()
export class AbsenceResolver {
  @Authorized('read')
  @Query(() => AbsenceTypeType, { description: 'The absence type with this id; one of another workspace, or none, answers `not_found`.' })
  absenceType(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The absence type's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return types.getAbsenceType(ctx, id);
  }

  @Authorized('read')
  @Query(() => AbsenceTypeConnection, { description: "The workspace's absence types, a page at a time (`first`, `after`)." })
  async absenceTypes(@Ctx() ctx: RequestContext, @Args() args: AbsenceTypeListArgs) {
    return toConnection(await types.listAbsenceTypes(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => AbsenceTypeType, {
    description:
      'Creates an absence type and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createAbsenceType(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateAbsenceTypeInput,
  ) {
    return types.createAbsenceType(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => AbsenceTypeType, {
    description:
      'Changes an absence type and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateAbsenceType(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The absence type's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateAbsenceTypeInput,
  ) {
    return types.updateAbsenceType(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => AbsenceTypeType, { description: 'Deletes a type no request uses (409 resource_in_use otherwise).' })
  deleteAbsenceType(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The absence type's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return types.deleteAbsenceType(ctx, id);
  }

  @Authorized('read')
  @Query(() => AbsenceRequestType, { description: 'The absence request with this id; one of another workspace, or none, answers `not_found`.' })
  async absenceRequest(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The absence request's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return requestObject(await requests.getAbsenceRequest(ctx, id));
  }

  @Authorized('read')
  @Query(() => AbsenceRequestConnection, {
    description: 'Absence requests, by start date; filters by company, employee, type, state, and a date range they touch.',
  })
  async absenceRequests(@Ctx() ctx: RequestContext, @Args() args: AbsenceRequestListArgs) {
    const { first: _first, after: _after, ...filter } = args;
    const page = await requests.listAbsenceRequests(ctx, filter, pageRequest(args));
    return toConnection({ ...page, items: page.items.map(requestObject) });
  }

  @Authorized('write')
  @Mutation(() => AbsenceRequestType, { description: 'Files a request (pending) on behalf of an employee.' })
  async createAbsenceRequest(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateAbsenceRequestInput,
  ) {
    return requestObject(await requests.createAbsenceRequest(ctx, input));
  }

  @Authorized('approve')
  @Mutation(() => AbsenceRequestType, { description: 'Approves a pending request (scope `approve` or `admin`): its workdays become `leave` at once.' })
  async approveAbsenceRequest(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The absence request's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('comment', () => String, {
      nullable: true,
      description: `A comment on the decision, kept with it and shown to the requester: optional, ${maxChars('comment')} (\`too_long\`).`,
    })
    @Bounded('comment')
    comment?: string | null,
  ) {
    return requestObject(await requests.decideAbsenceRequest(ctx, id, 'approve', comment));
  }

  @Authorized('approve')
  @Mutation(() => AbsenceRequestType, { description: 'Rejects a pending request (scope `approve` or `admin`).' })
  async rejectAbsenceRequest(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The absence request's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('comment', () => String, {
      nullable: true,
      description: `A comment on the decision, kept with it and shown to the requester: optional, ${maxChars('comment')} (\`too_long\`).`,
    })
    @Bounded('comment')
    comment?: string | null,
  ) {
    return requestObject(await requests.decideAbsenceRequest(ctx, id, 'reject', comment));
  }

  @Authorized('write', 'approve')
  @Mutation(() => AbsenceRequestType, {
    description: 'Cancels a pending request (`write`), or an approved one (`approve` or `admin`: its days revert at once).',
  })
  async cancelAbsenceRequest(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The absence request's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('comment', () => String, {
      nullable: true,
      description: `A comment on the decision, kept with it and shown to the requester: optional, ${maxChars('comment')} (\`too_long\`).`,
    })
    @Bounded('comment')
    comment?: string | null,
  ) {
    return requestObject(await requests.decideAbsenceRequest(ctx, id, 'cancel', comment));
  }

  @Authorized('read')
  @Query(() => [AbsenceBalanceType], { description: "An employee's balance per absence type of their company for a year (default: the current year)." })
  absenceBalances(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
    @Arg('year', () => Int, { nullable: true, description: 'The calendar year, e.g. 2026; the current year when left out.' }) year?: number | null,
  ) {
    return requests.absenceBalances(ctx, employeeId, year);
  }
}
