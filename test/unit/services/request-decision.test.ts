import { expect } from 'chai';
import type { Decision } from '../../../src/entities';
import { DomainError } from '../../../src/errors/domain-error';
import type { RequestContext } from '../../../src/context/request-context';
import {
  checkTransition,
  decisionData,
  pendingDecision,
  recordDecision,
  type DecidableFrom,
  type DecisionVerb,
} from '../../../src/services/leave/request-decision';

const at = new Date('2026-03-04T09:15:00.000Z');
const keyContext = (keyId: number | null) =>
  ({ principal: { kind: 'workspace', workspaceId: 1, keyId, scopes: ['approve'] }, now: () => at }) as unknown as RequestContext;

/** The refusal a decision meets, or null when it may be taken. */
function refusal(state: string, verb: DecisionVerb, from: DecidableFrom, label: string): { code: string; message: string } | null {
  try {
    checkTransition({ state }, verb, from, label);
    return null;
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    return { code: (error as DomainError).code, message: (error as DomainError).message };
  }
}

describe('request decisions (absence requests, punch corrections, overtime approvals)', () => {
  it('a request decided only from pending: anything else is invalid_transition, naming its state and what was asked', () => {
    expect(refusal('pending', 'approve', ['pending'], 'Punch correction 7')).to.equal(null);
    expect(refusal('approved', 'reject', ['pending'], 'Punch correction 7')).to.deep.equal({
      code: 'invalid_transition',
      message: 'Punch correction 7 is approved; it cannot be rejected.',
    });
    expect(refusal('cancelled', 'cancel', ['pending'], 'Punch correction 7')?.message).to.equal('Punch correction 7 is cancelled; it cannot be cancelled.');
    expect(refusal('rejected', 'approve', ['pending'], 'Absence request 3')?.message).to.equal('Absence request 3 is rejected; it cannot be approved.');
  });

  it('an approved absence may still be cancelled, not approved again', () => {
    const from = ['pending', 'approved'];
    expect(refusal('approved', 'cancel', from, 'Absence request 3')).to.equal(null);
    expect(refusal('rejected', 'cancel', from, 'Absence request 3')?.message).to.equal('Absence request 3 is rejected; it cannot be cancelled.');
  });

  it('a changeable decision (overtime) may be changed but not repeated', () => {
    expect(refusal('approved', 'reject', 'changeable', 'Overtime approval 9')).to.equal(null);
    expect(refusal('rejected', 'approve', 'changeable', 'Overtime approval 9')).to.equal(null);
    expect(refusal('approved', 'approve', 'changeable', 'Overtime approval 9')).to.deep.equal({
      code: 'invalid_transition',
      message: 'Overtime approval 9 is already approved.',
    });
  });

  it('checking changes nothing; recording sets the state, the acting key, the time and the comment', () => {
    const decision: Decision = pendingDecision(keyContext(4));
    expect(decision).to.deep.equal({ state: 'pending', requestedByKeyId: 4, requestedByEmployeeId: null });
    checkTransition(decision, 'approve', ['pending'], 'Absence request 3');
    expect(decision.state).to.equal('pending');
    recordDecision(keyContext(8), decision, 'reject', 'Busy season');
    expect(decision).to.deep.equal({
      state: 'rejected',
      requestedByKeyId: 4,
      requestedByEmployeeId: null,
      decidedByKeyId: 8,
      decidedByEmployeeId: null,
      decidedAt: at,
      decisionComment: 'Busy season',
    });
    recordDecision(keyContext(null), decision, 'cancel', undefined);
    expect(decision).to.deep.include({ state: 'cancelled', decidedByKeyId: null, decisionComment: null });
  });

  it('an employee filing or cancelling for themself is named as the employee, not as a key', () => {
    const employee = {
      principal: { kind: 'employee', workspaceId: 1, employeeId: 12, companyId: 2, tokenId: 3, sessionId: null },
      now: () => at,
    } as unknown as RequestContext;
    const decision: Decision = pendingDecision(employee);
    expect(decision).to.deep.equal({ state: 'pending', requestedByKeyId: null, requestedByEmployeeId: 12 });
    recordDecision(employee, decision, 'cancel', null);
    expect(decision).to.deep.include({ state: 'cancelled', decidedByKeyId: null, decidedByEmployeeId: 12 });
  });

  it('as events carry it: snake_case, ISO time, nulls for what is not set', () => {
    expect(decisionData({ state: 'pending', requestedByKeyId: 4 })).to.deep.equal({
      requested_by_key_id: 4,
      decided_by_key_id: null,
      requested_by_employee_id: null,
      decided_by_employee_id: null,
      decided_at: null,
      decision_comment: null,
    });
    expect(decisionData({ state: 'approved', requestedByKeyId: null, decidedByKeyId: 8, decidedAt: at, decisionComment: 'ok' })).to.deep.equal({
      requested_by_key_id: null,
      decided_by_key_id: 8,
      requested_by_employee_id: null,
      decided_by_employee_id: null,
      decided_at: '2026-03-04T09:15:00.000Z',
      decision_comment: 'ok',
    });
  });
});
