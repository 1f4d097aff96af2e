import type { Survey } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { readPhotos, retry, searchDataset, updateAnswers, type OutboxRecord } from '../../offline';
import { Modal } from '../../ui/Modal';
import { toast } from '../../lib/toast-store';
import { ResponseEditor } from '../capture/ResponseEditor';
import { useResponseEditor } from '../capture/use-response-editor';
import type { Photos } from '../capture/form-logic';
import type { AccountKey } from '../../session/account-key';
import { useT } from '../../lib/i18n';
import { ruleText } from '../capture/rule-text';

interface Props {
  record: OutboxRecord;
  survey: Survey;
  account: AccountKey;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * 'Fix' on a response the server refused: its questions as the form shows them, prefilled, the
 * photos on the phone and those already on the server shown; saving checks it as the server will
 * and queues it again (updateAnswers, retry).
 */
export default function FixResponseDialog({ record, survey, account, onClose, onSaved }: Props) {
  const t = useT();
  const editor = useResponseEditor({ questions: survey.questions, languages: survey, account, photoQuality: survey.photoQuality, start: { answers: record.answers, photos: {}, sent: record.photoRefs } });
  // The photos this phone still holds for it, read once: a photo not among them on save is new.
  const [stored, setStored] = useState<Photos | null>(null);
  const [saving, setSaving] = useState(false);
  const { load, current } = editor;

  useEffect(() => {
    void readPhotos(record.id).catch(() => ({})).then((photos) => {
      setStored(photos);
      load({ ...current(), photos: { ...photos, ...current().photos } });
    });
  }, [record.id, load, current]);

  const save = async () => {
    if (saving || !stored) return;
    const checked = editor.validate();
    if (!checked) return;
    setSaving(true);
    try {
      const changed = Object.fromEntries(Object.entries(checked.photos).filter(([q, photo]) => stored[q] !== photo));
      // The dialog shows the survey's current version: the answers are sent on it.
      await updateAnswers(record.id, checked.answers, changed, survey.version ?? 1, [...Object.keys(checked.photos), ...Object.keys(checked.sent)]);
      await retry(record.id);
      onSaved();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : t('msg.unexpectedError'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open title={t('fix.title')} onClose={onClose} className="modal--fix">
      {record.lastError && <p className="fu-rec__error"><strong>{t('responses.serverSaid')}</strong> {ruleText(record.lastError.msg)}</p>}
      <ResponseEditor editor={editor} searchDataset={(question, query) => searchDataset(account, survey._id, question, query)} disabled={saving} loading={stored === null} />
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onClose}>{t('common.cancel')}</button>
        <button type="button" className="btn btn--primary" onClick={() => void save()} disabled={saving || stored === null || editor.processing.size > 0}>{saving ? t('common.saving') : t('fix.save')}</button>
      </div>
    </Modal>
  );
}
