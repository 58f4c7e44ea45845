import { Field, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';

export enum FaceEnrollmentStatusValue {
  pending = 'pending',
  enrolled = 'enrolled',
  failed = 'failed',
  not_supported = 'not_supported',
}

export enum FaceEnrollmentMethodValue {
  photo = 'photo',
  template = 'template',
}

registerEnumType(FaceEnrollmentStatusValue, {
  name: 'FaceEnrollmentStatus',
  description:
    '`pending` until the terminal answered; `enrolled`; `failed` (see `reason`); `not_supported`: the terminal neither enrols faces from photos nor has the algorithm of a stored face template.',
});
registerEnumType(FaceEnrollmentMethodValue, {
  name: 'FaceEnrollmentMethod',
  description:
    '`photo`: the terminal enrolled the face from the photo itself; `template`: it received a face template another terminal of its algorithm version made.',
});

@ObjectType('EmployeePhoto', {
  description: "An employee's face photo, as stored: a JPEG of at most 640 px on a side, EXIF orientation applied, metadata removed.",
})
export class EmployeePhotoType {
  @Field(() => Int) employeeId!: number;
  @Field({ description: 'Always `image/jpeg` (PNG uploads are converted).' }) contentType!: string;
  @Field(() => Int, { description: 'Bytes of the stored JPEG.' }) size!: number;
  @Field(() => Int) width!: number;
  @Field(() => Int) height!: number;
  @Field({ description: 'SHA-256 of the stored JPEG, hexadecimal.' }) sha256!: string;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('EmployeePhotoContent', { description: 'The stored photo with its bytes.' })
export class EmployeePhotoContentType extends EmployeePhotoType {
  @Field({ description: 'The JPEG, base64 (RFC 4648).' }) imageBase64!: string;
}

@ObjectType('FaceEnrollment', { description: "Where an employee's photo stands on one of the employee's terminals." })
export class FaceEnrollmentType {
  @Field(() => Int) deviceId!: number;
  @Field() serialNumber!: string;
  @Field(() => FaceEnrollmentStatusValue) status!: FaceEnrollmentStatusValue;
  @Field(() => FaceEnrollmentMethodValue, { nullable: true }) method?: FaceEnrollmentMethodValue | null;
  @Field(() => String, {
    nullable: true,
    description: "The terminal's return code of a failure as it wrote it: `D01E0001`…`D01E0006` for photo problems, a negative number otherwise.",
  })
  returnCode?: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Why it failed: `no_face`, `face_covered`, `not_sharp`, `face_angle`, `liveness_failed`, `extraction_failed`, `size_mismatch`, `capacity_full`, `not_supported`, `not_configured` or `terminal_error`.',
  })
  reason?: string | null;
  @Field(() => String, { nullable: true }) message?: string | null;
  @Field(() => Date, { nullable: true, description: 'When this status was reached; null while the sync engine has not reached the terminal.' })
  updatedAt?: Date | null;
}

@ObjectType('EmployeePhotoStatus')
export class EmployeePhotoStatusType {
  @Field(() => Int) employeeId!: number;
  @Field(() => EmployeePhotoType) photo!: EmployeePhotoType;
  @Field(() => [FaceEnrollmentType], { description: 'One entry per terminal the employee is on.' }) devices!: FaceEnrollmentType[];
}
