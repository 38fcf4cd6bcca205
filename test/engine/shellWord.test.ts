// Commands printed for a user to paste carry hostile names: each value must stay one shell word, whatever it holds.

import { describe, expect, it } from 'vitest';
import { commandLines, shellComment, shellWord } from '../../server/src/engine/shellWord';
import { HOSTILE, shellWords } from '../helpers/shellWords';

describe('shellWord', () => {
  it('leaves plain names as they are', () => {
    expect(shellWord('deployment.apps/web')).toBe('deployment.apps/web');
    expect(shellWord('kubernetes.io/service-name=web')).toBe('kubernetes.io/service-name=web');
  });

  it('makes every hostile value exactly one word that the shell gives back unchanged', () => {
    for (const s of HOSTILE) expect(shellWords(`kubectl get ${shellWord(s)}`), JSON.stringify(s)).toEqual(['get', s]);
  });
});

describe('shellComment and commandLines', () => {
  it('a comment stays one comment the shell ignores, whatever its text holds', () => {
    for (const s of HOSTILE) {
      const script = `${shellComment(`reinstall ${s}`)}\nkubectl get x`;
      expect(shellWords(script), JSON.stringify(s)).toEqual(['get', 'x']);
      expect(commandLines(script)).toHaveLength(2);
    }
  });

  it('splits a command of several steps at its own line breaks, never inside a quoted name', () => {
    const steps = [shellComment('restore the Pods'), `kubectl patch ${shellWord('two\nlines')} -p ${shellWord('[]')}`, 'kubectl get y'];
    expect(commandLines(steps.join('\n'))).toEqual(steps);
    expect(commandLines('kubectl get x')).toEqual(['kubectl get x']);
  });
});
