import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RestartPolicy } from '../src/restartPolicy';

describe('RestartPolicy', () => {
  it('restarts 4 times in 3 minutes, then gives up', () => {
    let now = 0;
    const policy = new RestartPolicy(4, 180_000, () => now);
    const decisions = [];
    for (let i = 0; i < 5; i++) {
      decisions.push(policy.onCrash());
      now += 10_000;
    }
    assert.deepEqual(
      decisions.map((d) => [d.restart, d.crashes]),
      [
        [true, 1],
        [true, 2],
        [true, 3],
        [true, 4],
        [false, 5],
      ],
    );
  });

  it('forgets crashes older than the window', () => {
    let now = 0;
    const policy = new RestartPolicy(4, 180_000, () => now);
    for (let i = 0; i < 4; i++) {
      policy.onCrash();
    }
    now = 180_000;
    assert.equal(policy.recentCrashes(), 0);
    assert.deepEqual([policy.onCrash().restart, policy.recentCrashes()], [true, 1]);
  });

  it('reset clears the budget (manual restart)', () => {
    const policy = new RestartPolicy(1, 1000, () => 0);
    policy.onCrash();
    assert.equal(policy.onCrash().restart, false);
    policy.reset();
    assert.equal(policy.onCrash().restart, true);
  });
});
