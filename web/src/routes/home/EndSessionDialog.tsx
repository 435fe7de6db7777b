import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endSession } from '../../api/sessions';
import { errorMessage } from '../../api/client';
import { Modal } from '../../components/Modal';
import { toast } from '../../components/toasts';

/** Asks for the message the viewer will read, then ends the session on the media server. */
export function EndSessionDialog({
  session,
  title,
  onClose,
}: {
  session: { Id: string; ServerId?: string | null; UserName?: string | null };
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [message, setMessage] = useState(() => t('endSession.defaultMessage'));
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      const answer = await endSession(session, message);
      toast.success(answer.message);
      onClose();
    } catch (error) {
      toast.error(errorMessage(error));
      setBusy(false);
    }
  }
  return (
    <Modal title={t('endSession.title')} onClose={onClose}>
      <p className="mb-3 text-sm text-gray-300">{t('endSession.explain', { title, user: session.UserName ?? '' })}</p>
      <label className="mb-4 block text-sm">
        <span className="mb-1 block text-gray-400">{t('endSession.message')}</span>
        <textarea className="input w-full" rows={3} maxLength={500} value={message} onChange={(event) => setMessage(event.target.value)} />
      </label>
      <div className="flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="btn-danger" disabled={busy} onClick={() => void confirm()}>
          {t('endSession.confirm')}
        </button>
      </div>
    </Modal>
  );
}
