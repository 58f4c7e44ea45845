import { Field, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';

/** Biometric type index of the protocol (the biometric type table of ATT-DOC; src/protocol/PROTOCOL.md), by name. */
export enum BiometricType {
  generic = 'generic',
  fingerprint = 'fingerprint',
  face = 'face',
  voice = 'voice',
  iris = 'iris',
  retina = 'retina',
  palm_print = 'palm_print',
  finger_vein = 'finger_vein',
  palm_vein = 'palm_vein',
  visible_light_face = 'visible_light_face',
  visible_light_palm = 'visible_light_palm',
}

/** Index → name, in the order of the type index. */
export const BIOMETRIC_TYPES = Object.values(BiometricType);

export enum TemplateFormat {
  zk = 'zk',
  iso = 'iso',
  ansi = 'ansi',
}

registerEnumType(BiometricType, {
  name: 'BiometricType',
  description: '`face` is the near-infrared face of older terminals; `visible_light_face` that of newer ones.',
  valuesConfig: {
    generic: { description: 'A template of unspecified kind (type index 0).' },
    fingerprint: { description: 'A fingerprint.' },
    face: { description: 'A near-infrared face (older terminals).' },
    voice: { description: 'A voice print.' },
    iris: { description: 'An iris.' },
    retina: { description: 'A retina.' },
    palm_print: { description: 'A palm print.' },
    finger_vein: { description: 'A finger vein pattern.' },
    palm_vein: { description: 'A palm vein pattern (near-infrared palm).' },
    visible_light_face: { description: 'A visible-light face (newer terminals).' },
    visible_light_palm: { description: 'A visible-light palm.' },
  },
});
registerEnumType(TemplateFormat, {
  name: 'TemplateFormat',
  description: 'How a biometric template is encoded.',
  valuesConfig: { zk: { description: "The vendor's own template format." }, iso: { description: 'ISO/IEC 19794.' }, ansi: { description: 'ANSI INCITS 378.' } },
});

@ObjectType('EmployeeTemplate', {
  description: 'A biometric template enrolled on a terminal. Metadata only: the template itself never leaves the service except to terminals.',
})
export class EmployeeTemplateType {
  @Field(() => Int, { description: "The employee template's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the employee of this employee template.' }) employeeId!: number;
  @Field(() => BiometricType, { description: 'The biometric kind: fingerprint, face, palm, finger vein...' }) type!: BiometricType;
  @Field(() => Int, { description: 'Finger number 0-9 for fingerprints and finger veins; 0 for faces.' }) index!: number;
  @Field(() => Int, { description: 'Part of a multi-template biometric (e.g. one of the templates of a face); 0 for fingerprints.' }) subIndex!: number;
  @Field(() => String, { nullable: true, description: 'Algorithm version `major.minor`; a terminal only receives templates of its own major version.' })
  version?: string | null;
  @Field(() => TemplateFormat, { description: "The template format: `zk` (the vendor's), `iso` (ISO/IEC 19794) or `ansi` (ANSI 378)." })
  format!: TemplateFormat;
  @Field({ description: "The terminal's `Valid` flag of the template, passed on as it is when the template is sent to the employee's other terminals." })
  valid!: boolean;
  @Field({ description: 'A duress finger: verifying with it raises a silent alarm.' }) duress!: boolean;
  @Field(() => Int, { description: 'Length of the base64 template.' }) size!: number;
  @Field(() => Int, { nullable: true, description: 'The terminal it was enrolled on (null once that device is deleted).' }) sourceDeviceId?: number | null;
  @Field({ description: 'When the employee template was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the employee template was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}
