import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateGeofenceInput, GeofenceConnection, GeofenceListArgs, GeofenceType, UpdateGeofenceInput } from '../schema/self-service.type';
import * as geofences from '../services/self-service/geofence.service';
import * as approvals from '../services/self-service/approvals.service';

/** Geofences and area approvers: what a workspace sets up for its employees' self-service. */
@Resolver()
export class GeofenceResolver {
  @Authorized('read')
  @Query(() => GeofenceType, { description: 'One place where employees may punch from their phones: its circle and whom it applies to.' })
  geofence(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: 'The geofence id; one not of this workspace is `not_found`.' }) id: number) {
    return geofences.getGeofence(ctx, id);
  }

  @Authorized('read')
  @Query(() => GeofenceConnection, { description: 'The places employees may punch from with their phones, by id.' })
  async geofences(@Ctx() ctx: RequestContext, @Args() { companyId, ...page }: GeofenceListArgs) {
    return toConnection(await geofences.listGeofences(ctx, { companyId }, pageRequest(page)));
  }

  @Authorized('write')
  @Mutation(() => GeofenceType, {
    description:
      "Adds a place where the company's employees may punch from their phones (when the company has mobilePunch on): a circle of radiusM metres, for some areas or employees or the whole company.",
  })
  createGeofence(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: 'The circle, its name and whom it applies to; a bad value is `validation_failed` and creates nothing.' })
    input: CreateGeofenceInput,
  ) {
    return geofences.createGeofence(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => GeofenceType, { description: 'A field left out keeps its value.' })
  updateGeofence(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: 'The geofence id; one not of this workspace is `not_found`.' }) id: number,
    @Arg('input', { description: 'The fields to change; a bad value is `validation_failed` and changes nothing.' }) input: UpdateGeofenceInput,
  ) {
    return geofences.updateGeofence(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => GeofenceType, { description: 'Punches made inside it keep its id.' })
  deleteGeofence(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: 'The geofence id; one not of this workspace is `not_found`.' }) id: number) {
    return geofences.deleteGeofence(ctx, id);
  }

  @Authorized('read')
  @Query(() => [Int], { description: "The employees who decide the area's employees' requests in self-service (managers), by id." })
  areaApprovers(
    @Ctx() ctx: RequestContext,
    @Arg('areaId', () => Int, { description: 'The area id; one not of this workspace is `not_found`.' }) areaId: number,
  ) {
    return approvals.areaApprovers(ctx, areaId);
  }

  @Authorized('write')
  @Mutation(() => [Int], {
    description:
      "Makes exactly these employees of the area's company its approvers (an empty list: none); they decide its employees' requests in self-service when their company has manager approvals on.",
  })
  setAreaApprovers(
    @Ctx() ctx: RequestContext,
    @Arg('areaId', () => Int, { description: 'The area id; one not of this workspace is `not_found`.' }) areaId: number,
    @Arg('employeeIds', () => [Int], { description: 'At most 1,000.' }) employeeIds: number[],
  ) {
    return approvals.setAreaApprovers(ctx, areaId, employeeIds);
  }
}
