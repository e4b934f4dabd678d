import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { literalsOfferedByJson, propertyAt, withoutDoubles } from '../src/completionDedupe';

describe('completion without doubles', () => {
  const text = '[{"additionalProperties": false}, {"additionalProperties": f}]';
  const cursor = text.indexOf(' f}') + 2;

  it('finds the property being typed', () => {
    assert.equal(propertyAt(text, cursor), 'additionalProperties');
    assert.equal(propertyAt('{"a": "x"', 8), undefined);
  });

  it('knows what VS Code offers: the literals the same property has elsewhere', () => {
    assert.deepEqual([...literalsOfferedByJson(text, cursor)], ['false']);
    assert.deepEqual([...literalsOfferedByJson('{"strict": ', 11)], []);
  });

  it('drops only our doubles', () => {
    const items = [{ label: 'false' }, { label: 'true' }, { label: '"string"' }];
    assert.deepEqual(withoutDoubles(items, new Set(['false'])), [{ label: 'true' }, { label: '"string"' }]);
    assert.deepEqual(withoutDoubles(items, new Set()), items);
  });
});
