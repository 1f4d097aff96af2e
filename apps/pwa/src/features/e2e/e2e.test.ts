import { QuestionType, type ResponseRow } from '@survey-bird/contracts';
import { encryptAnswers, generateSurveyKeys, isSurveyKeyFile, lockPrivateKey, unlockPrivateKey } from '@survey-bird/contracts/e2e';
import { describe, expect, it } from 'vitest';
import { decryptedCsv } from './decrypted-csv';
import { openRows } from './open-answers';

const row = (over: Partial<ResponseRow>): ResponseRow => ({
  _id: 'r1', survey_id: 's1', organization_id: 'o1', answers: {}, fullName: 'Ada Obi', email: 'ada@team.ng', fieldUser: { fullName: 'Ada Obi', email: 'ada@team.ng' },
  createdAt: '2026-11-28T10:00:00.000Z', capturedAt: null, status: 'approved', checking: false, flags: [], ...over,
} as ResponseRow);

describe('end-to-end encryption in the browser', () => {
  it('a key file made with a passphrase opens the answers a phone sealed; the wrong passphrase does not', async () => {
    const keys = await generateSurveyKeys();
    const file = JSON.parse(JSON.stringify(await lockPrivateKey(keys.privateKey, keys.publicKey, 'a long office passphrase', 1_000))) as unknown;
    expect(isSurveyKeyFile(file)).toBe(true);
    if (!isSurveyKeyFile(file)) return;
    // The file holds no private key material in clear: only the public key and ciphertext.
    expect(JSON.stringify(file)).not.toMatch(/PRIVATE/);
    await expect(unlockPrivateKey(file, 'not the passphrase')).rejects.toThrow(/passphrase/);
    const key = { kid: file.kid, privateKey: await unlockPrivateKey(file, 'a long office passphrase'), fileName: 'k.json' };

    const answers = { 'Respondent name': 'Ngozi Adeyemi', Age: '41', 'Shelf photo': '/api/v1/files/image/abc' };
    const sealed = await encryptAnswers(keys.publicKey, answers);
    expect(JSON.stringify(sealed)).not.toContain('Ngozi');
    const other = await generateSurveyKeys();
    const [opened, foreign] = await openRows(key, [row({ encrypted: sealed }), row({ _id: 'r2', encrypted: await encryptAnswers(other.publicKey, answers) })]);
    expect(opened!.answers).toEqual(answers);
    // Sealed to another key: shown as the server sent it, not failed.
    expect(foreign!.answers).toEqual({});

    const csv = decryptedCsv({ questions: [{ id: 'q1', text: 'Respondent name', type: QuestionType.text, compulsory: true, options: [] }, { id: 'q2', text: 'Age', type: QuestionType.number, compulsory: false, options: [] }] }, [opened!, row({ _id: 'r3', answers: { 'Respondent name': '=HYPERLINK("x")' } })]);
    expect(csv.startsWith('\ufeff')).toBe(true);
    const lines = csv.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Response id,Field user,Field user email,Captured,Received,Status,Respondent name,Age');
    expect(lines[1]).toBe('r1,Ada Obi,ada@team.ng,,2026-11-28T10:00:00.000Z,approved,Ngozi Adeyemi,41');
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"")"`);
  });
});
