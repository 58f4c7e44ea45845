import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as approvals from '../services/leave/overtime-approval.service';
import { pageRequest, toConnection } from '../schema/connection';
import {
  ApproveOvertimePeriodInput,
  CreateOvertimeApprovalInput,
  OvertimeApprovalConnection,
  OvertimeApprovalListArgs,
  overtimeApprovalObject,
  OvertimeApprovalType,
  OvertimePeriodApprovalType,
  OvertimePeriodRejectionType,
  RejectOvertimePeriodInput,
} from '../schema/overtime-approval.type';
import type { OvertimeApproval } from '../entities';
import { Bounded, maxChars } from '../schema/bounds';

const approvalObject = (approval: OvertimeApproval) => overtimeApprovalObject(approvals.overtimeApprovalData(approval));

@Resolver()
export class OvertimeApprovalResolver {
  @Authorized('read')
  @Query(() => OvertimeApprovalType, { description: 'The overtime approval with this id; one of another workspace, or none, answers `not_found`.' })
  async overtimeApproval(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The overtime approval's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return approvalObject(await approvals.getOvertimeApproval(ctx, id));
  }

  @Authorized('read')
  @Query(() => OvertimeApprovalConnection, { description: 'Overtime approvals by date; filters by company, employee, state and a date range.' })
  async overtimeApprovals(@Ctx() ctx: RequestContext, @Args() args: OvertimeApprovalListArgs) {
    const { first: _first, after: _after, ...filter } = args;
    const page = await approvals.listOvertimeApprovals(ctx, filter, pageRequest(args));
    return toConnection({ ...page, items: page.items.map(approvalObject) });
  }

  @Authorized('write')
  @Mutation(() => OvertimeApprovalType, { description: "Asks for an employee's overtime on a date to be approved (pending)." })
  async createOvertimeApproval(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateOvertimeApprovalInput,
  ) {
    return approvalObject(await approvals.createOvertimeApproval(ctx, input));
  }

  @Authorized('approve')
  @Mutation(() => OvertimeApprovalType, {
    description:
      "Approves a day's overtime (scope `approve` or `admin`), pending or rejected before; `minutes` caps what counts. The day is recomputed at once.",
  })
  async approveOvertime(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The overtime approval's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('comment', () => String, {
      nullable: true,
      description: `A comment on the decision, kept with it and shown to the requester: optional, ${maxChars('comment')} (\`too_long\`).`,
    })
    @Bounded('comment')
    comment?: string | null,
    @Arg('minutes', () => Int, { nullable: true, description: "The most overtime minutes that count; null: all of the day's overtime." })
    minutes?: number | null,
  ) {
    return approvalObject(await approvals.decideOvertimeApproval(ctx, id, 'approve', { comment, minutes }));
  }

  @Authorized('approve')
  @Mutation(() => OvertimeApprovalType, {
    description: "Rejects a day's overtime (scope `approve` or `admin`), pending or approved before: it is not paid, regular time stays.",
  })
  async rejectOvertime(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The overtime approval's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('comment', () => String, {
      nullable: true,
      description: `A comment on the decision, kept with it and shown to the requester: optional, ${maxChars('comment')} (\`too_long\`).`,
    })
    @Bounded('comment')
    comment?: string | null,
  ) {
    return approvalObject(await approvals.decideOvertimeApproval(ctx, id, 'reject', { comment }));
  }

  @Authorized('approve')
  @Mutation(() => OvertimePeriodApprovalType, {
    description:
      "Approves a period's overtime at once (scope `approve` or `admin`): a company's or some employees' pending approvals and days with pending overtime; rejected days stay rejected.",
  })
  async approveOvertimePeriod(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: 'The company, the date range and optionally the employees whose overtime to approve.' }) input: ApproveOvertimePeriodInput,
  ) {
    const approved = await approvals.approveOvertimePeriod(ctx, input);
    return { count: approved.length, approvals: approved.map(approvalObject) };
  }

  @Authorized('approve')
  @Mutation(() => OvertimePeriodRejectionType, {
    description:
      "Rejects a period's overtime at once (scope `approve` or `admin`): a company's or some employees' pending approvals and days with pending overtime (filed rejected, never approved first); approved days stay approved.",
  })
  async rejectOvertimePeriod(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: 'The company, the date range and optionally the employees whose overtime to reject.' }) input: RejectOvertimePeriodInput,
  ) {
    const rejected = await approvals.rejectOvertimePeriod(ctx, input);
    return { count: rejected.length, approvals: rejected.map(approvalObject) };
  }
}
