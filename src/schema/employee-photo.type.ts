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
  valuesConfig: {
    pending: { description: 'The photo was sent; the terminal has not answered yet.' },
    enrolled: { description: 'The terminal enrolled the face.' },
    failed: { description: 'The terminal could not enrol the face (see `message`).' },
    not_supported: { description: 'The terminal neither enrols faces from photos nor has the algorithm of a stored face template.' },
  },
});
registerEnumType(FaceEnrollmentMethodValue, {
  name: 'FaceEnrollmentMethod',
  description:
    '`photo`: the terminal enrolled the face from the photo itself; `template`: it received a face template another terminal of its algorithm version made.',
  valuesConfig: {
    photo: { description: 'The terminal enrolled the face from the photo itself.' },
    template: { description: 'It received a face template another terminal of its algorithm version made.' },
  },
});

@ObjectType('EmployeePhoto', {
  description: "An employee's face photo, as stored: a JPEG of at most 640 px on a side, EXIF orientation applied, metadata removed.",
})
export class EmployeePhotoType {
  @Field(() => Int, { description: 'The id of the employee of this employee photo.' }) employeeId!: number;
  @Field({ description: 'Always `image/jpeg` (PNG uploads are converted).' }) contentType!: string;
  @Field(() => Int, { description: 'Bytes of the stored JPEG.' }) size!: number;
  @Field(() => Int, { description: 'The width of the stored photo, in pixels.' }) width!: number;
  @Field(() => Int, { description: 'The height of the stored photo, in pixels.' }) height!: number;
  @Field({ description: 'SHA-256 of the stored JPEG, hexadecimal.' }) sha256!: string;
  @Field({ description: 'When the employee photo was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the employee photo was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('EmployeePhotoContent', { description: 'The stored photo with its bytes.' })
export class EmployeePhotoContentType extends EmployeePhotoType {
  @Field({ description: 'The JPEG, base64 (RFC 4648).' }) imageBase64!: string;
}

@ObjectType('FaceEnrollment', { description: "Where an employee's photo stands on one of the employee's terminals." })
export class FaceEnrollmentType {
  @Field(() => Int, { description: 'The id of the terminal (device) of this face enrollment.' }) deviceId!: number;
  @Field({ description: 'The serial number of the terminal, as it sends it in the PUSH protocol (`SN`).' }) serialNumber!: string;
  @Field(() => FaceEnrollmentStatusValue, { description: '`pending` until the terminal answered, then `enrolled`, `failed` or `not_supported`.' })
  status!: FaceEnrollmentStatusValue;
  @Field(() => FaceEnrollmentMethodValue, {
    nullable: true,
    description: 'How the face was enrolled: `photo` (from the photo) or `template` (a template another terminal made); null while pending.',
  })
  method?: FaceEnrollmentMethodValue | null;
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
  @Field(() => String, { nullable: true, description: "The terminal's reason for a failure (no face found, image too small); null otherwise." }) message?:
    string | null;
  @Field(() => Date, { nullable: true, description: 'When this status was reached; null while the sync engine has not reached the terminal.' })
  updatedAt?: Date | null;
}

@ObjectType('EmployeePhotoStatus', { description: "An employee's photo and, per terminal they are on, whether it enrolled a face from it." })
export class EmployeePhotoStatusType {
  @Field(() => Int, { description: 'The id of the employee of this employee photo status.' }) employeeId!: number;
  @Field(() => EmployeePhotoType, { description: 'The stored photo; null when the employee has none.' }) photo!: EmployeePhotoType;
  @Field(() => [FaceEnrollmentType], { description: 'One entry per terminal the employee is on.' }) devices!: FaceEnrollmentType[];
}
