import { describe, expect, it } from 'vitest';
import { answerAt, instancesAt, pathKey, withAnswerAt, withInstanceAdded, withInstanceRemoved } from './answer-path';

const household = { Village: 'Kura', Members: [{ Name: 'Ada', Plots: [{ Size: '2' }] }, { Name: 'Bala' }] };
const inPlot = { at: [{ repeat: 'Members', index: 0 }, { repeat: 'Plots', index: 0 }], question: 'Size' };

describe('answer paths (nested repeat answers)', () => {
  it('reads and writes an answer inside nested instances, copying only the way there', () => {
    expect(answerAt(household, inPlot)).toBe('2');
    const next = withAnswerAt(household, inPlot, '3');
    expect(answerAt(next, inPlot)).toBe('3');
    expect(answerAt(household, inPlot)).toBe('2');
    expect(next.Members[1]).toBe(household.Members[1]);
    expect(withAnswerAt(household, { at: [], question: 'Village' }, undefined)).toEqual({ Members: household.Members });
  });

  it('adds an instance at the end and removes one, the later ones moving up', () => {
    const added = withInstanceAdded(household, [], 'Members', { Name: 'Chidi' });
    expect(instancesAt(added, [], 'Members').map((m) => m.Name)).toEqual(['Ada', 'Bala', 'Chidi']);
    const removed = withInstanceRemoved(added, [], 'Members', 0);
    expect(instancesAt(removed, [], 'Members').map((m) => m.Name)).toEqual(['Bala', 'Chidi']);
    expect(withInstanceRemoved(withInstanceRemoved(removed, [], 'Members', 0), [], 'Members', 0)).toMatchObject({ Members: [] });
    const plot = withInstanceAdded(household, [{ repeat: 'Members', index: 1 }], 'Plots');
    expect(answerAt(plot, { at: [{ repeat: 'Members', index: 1 }], question: 'Plots' })).toEqual([{}]);
  });

  it('keeps a question called __proto__ as data, and names paths with 1-based instances', () => {
    const odd = withAnswerAt({}, { at: [], question: '__proto__' }, 'x');
    expect(Object.keys(odd)).toEqual(['__proto__']);
    expect(answerAt(odd, { at: [], question: '__proto__' })).toBe('x');
    expect(pathKey(inPlot)).toBe('Members#1/Plots#1/Size');
    expect(pathKey({ at: [], question: 'Village' })).toBe('Village');
  });
});
