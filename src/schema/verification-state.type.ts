import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection } from './connection';
import { Bounded, maxChars } from './bounds';

@ObjectType('VerificationState', { description: 'A name for an attendance state number the terminals send (check-in, check-out, ...).' })
export class VerificationStateType {
  @Field(() => Int, { description: "The verification state's id, given by the service when it was created and never reused." }) id!: number;
  @Field({ description: "The verification state's name, as the console and reports show it." }) name!: string;
  @Field({ description: 'The number as a string, "0" to "255", unique in the workspace.' }) value!: string;
  @Field({ description: 'When the verification state was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the verification state was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('VerificationStateConnection', {
  description:
    'A page of verification states: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class VerificationStateConnection extends Connection(VerificationStateType) {}

@InputType({ description: 'The fields of a new verification state.' })
export class CreateVerificationStateInput {
  @Bounded('stateName') @Field({ description: `The verification state's name: not blank, ${maxChars('stateName')} (\`blank\`, \`too_long\`).` }) name!: string;
  @Bounded('punchState')
  @Field({ description: `The punch state code the terminal sends for it (\`0\` check in, \`1\` check out...), ${maxChars('punchState')}.` })
  value!: string;
}

@InputType({ description: "The new values of a verification state's fields; a field left out (where it may be) keeps its value." })
export class UpdateVerificationStateInput {
  @Bounded('stateName')
  @Field({ nullable: true, description: `The verification state's name: not blank, ${maxChars('stateName')} (\`blank\`, \`too_long\`). Left out: unchanged.` })
  name?: string;
  @Bounded('punchState')
  @Field({ nullable: true, description: `The punch state code the terminal sends, ${maxChars('punchState')}. Left out: unchanged.` })
  value?: string;
}
