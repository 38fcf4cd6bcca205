// Commands printed for a user to paste carry hostile names: each value must stay one shell word, whatever it holds.

import { describe, expect, it } from 'vitest';
import { shellWord } from '../../server/src/engine/shellWord';
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
