import { QuestionType, type Question } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { builderReducer, EMPTY_BUILDER } from './builder';
import { blockEnd, entryProblems, movedBy, movedInto, moveTargets, repeatCountOf, withContainer, withFieldList } from './builder-structure';

const q = (id: string, type: QuestionType = QuestionType.text, parent?: string): Question => ({ id, text: id, type, compulsory: false, options: [], ...(parent ? { parent } : {}) });
// village; hh (group: head); members (repeat: name, plots (repeat: size)); total
const form = [q('village'), q('hh', QuestionType.group), q('head', QuestionType.text, 'hh'), q('members', QuestionType.repeat), q('name', QuestionType.text, 'members'), q('plots', QuestionType.repeat, 'members'), q('size', QuestionType.decimal, 'plots'), q('total')];
const ids = (qs: readonly Question[]) => qs.map((x) => (x.parent ? `${x.id}<${x.parent}` : x.id));

describe('groups and repeats in the builder', () => {
  it('a container\'s block is itself and everything inside it, nested repeats included', () => {
    expect(blockEnd(form, 3)).toBe(7);
    expect(blockEnd(form, 5)).toBe(7);
    expect(blockEnd(form, 0)).toBe(1);
  });

  it('moves a question into a repeat at its end, and out to the end of the form', () => {
    const into = movedInto(form, 0, 'members');
    expect(ids(into)).toEqual(['hh', 'head<hh', 'members', 'name<members', 'plots<members', 'size<plots', 'village<members', 'total']);
    expect(ids(movedInto(into, 6, null))).toEqual(['hh', 'head<hh', 'members', 'name<members', 'plots<members', 'size<plots', 'total', 'village']);
  });

  it('moves a whole repeat with its members into a group; never into itself', () => {
    expect(ids(movedInto(form, 3, 'hh'))).toEqual(['village', 'hh', 'head<hh', 'members<hh', 'name<members', 'plots<members', 'size<plots', 'total']);
    expect(moveTargets(form, 3).map((x) => x.id)).toEqual(['hh']);
    expect(movedInto(form, 3, 'plots')).toEqual(form);
  });

  it('moves up and down among the entries of the same container, blocks whole', () => {
    expect(ids(movedBy(form, 7, -1))).toEqual(['village', 'hh', 'head<hh', 'total', 'members', 'name<members', 'plots<members', 'size<plots']);
    expect(ids(movedBy(form, 4, 1))).toEqual(['village', 'hh', 'head<hh', 'members', 'plots<members', 'size<plots', 'name<members', 'total']);
    // The first member of a container stays first; the last of the form stays last.
    expect(movedBy(form, 4, -1)).toEqual(form);
    expect(movedBy(form, 7, 1)).toEqual(form);
  });

  it('adds a container, switches field-list, reads a repeat count, and checks expressions as the publish does', () => {
    const added = withContainer(form, QuestionType.group, ' Farming ');
    expect(added.at(-1)).toMatchObject({ text: 'Farming', type: QuestionType.group, compulsory: false });
    expect(withFieldList('minimal', true)).toBe('field-list minimal');
    expect(withFieldList('field-list', false)).toBeUndefined();
    expect([repeatCountOf('3'), repeatCountOf(' ${village} '), repeatCountOf('')]).toEqual([3, '${village}', undefined]);
    const broken = form.map((x) => (x.id === 'members' ? { ...x, relevantExpr: '${nobody} > 1' } : x));
    expect(entryProblems(broken, 3).join()).toMatch(/nobody/);
    expect(entryProblems(form, 3)).toEqual([]);
  });

  it('the reducer keeps the question being edited in the form when the list is rearranged', () => {
    const state = builderReducer({ ...EMPTY_BUILDER, questions: form }, { type: 'edit', index: 7 });
    const moved = builderReducer(state, { type: 'questions', questions: movedBy(form, 7, -1) });
    expect(moved.editing).toBe(3);
    expect(moved.form.text).toBe('total');
  });
});
