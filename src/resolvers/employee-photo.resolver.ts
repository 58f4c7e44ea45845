import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as photos from '../services/sync/employee-photo.service';
import { EmployeePhotoContentType, EmployeePhotoStatusType, EmployeePhotoType } from '../schema/employee-photo.type';
import { Bounded, maxChars } from '../schema/bounds';

@Resolver(() => EmployeePhotoType)
export class EmployeePhotoResolver {
  @Authorized('read')
  @Query(() => EmployeePhotoContentType, { description: "An employee's photo with its bytes (not found when the employee has none)." })
  employeePhoto(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
  ) {
    return photos.getEmployeePhoto(ctx, employeeId);
  }

  @Authorized('read')
  @Query(() => EmployeePhotoStatusType, { description: "Where an employee's photo stands on each of the employee's terminals." })
  employeePhotoStatus(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
  ) {
    return photos.employeePhotoStatus(ctx, employeeId);
  }

  @Authorized('write')
  @Mutation(() => EmployeePhotoType, {
    description:
      "Stores (or replaces) an employee's face photo, a JPEG or PNG of at most 5 MiB (in base64 here, so also within the request body limit) and at least 100 × 100 px, and enrols the face on the employee's terminals.",
  })
  setEmployeePhoto(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
    @Arg('imageBase64', {
      description: `The photo, a JPEG or PNG of at least 100 × 100 px, in base64: ${maxChars('photoBase64')} (5 MiB of image); otherwise \`invalid_image\` or \`too_long\`.`,
    })
    @Bounded('photoBase64')
    imageBase64: string,
  ) {
    return photos.putEmployeePhoto(ctx, employeeId, imageBase64);
  }

  @Authorized('write')
  @Mutation(() => EmployeePhotoType, { description: "Deletes an employee's photo and every face template of the employee, here and on every terminal." })
  deleteEmployeePhoto(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
  ) {
    return photos.deleteEmployeePhoto(ctx, employeeId);
  }
}
