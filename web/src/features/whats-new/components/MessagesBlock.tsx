import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { MailIcon } from '@/components/icons';
import { Modal } from '@/components/modal/Modal';
import { RichText } from '@/components/RichText';
import { toast } from '@/lib/stores/toast';
import { formatShortDate } from '@/lib/dates';
import { excerpt } from '@/lib/html';
import { MAX_REPLY_LENGTH, MESSAGE_STATUS, useMarkMessageSeen, useMessages, useReplyToMessage } from '../api/messages';
import { MESSAGES, toastText } from '../messages';
import type { SurveyMessage } from '../types';
import styles from './WhatsNewPage.module.css';

function parseRound(raw: string | null): number | null {
  return raw && /^[1-9]\d{0,17}$/.test(raw) ? Number(raw) : null;
}

/**
 * Survey messages (spec 7: `GET messages` with the round of `?roundId=`, `POST messages`,
 * `POST reply`), above the notifications. Opening a new message marks it seen; a message with
 * a question takes a written answer.
 */
export function MessagesBlock() {
  const [params] = useSearchParams();
  const roundId = parseRound(params.get('roundId'));
  const { data, isError } = useMessages(roundId);
  const markSeen = useMarkMessageSeen();
  const [openId, setOpenId] = useState<number | null>(null);

  useEffect(() => {
    if (isError) toast.danger(MESSAGES.messages);
  }, [isError]);

  if (!data || data.length === 0) return null;
  const shown = data.find((m) => m.messageId === openId) ?? null;

  const openMessage = (m: SurveyMessage) => {
    setOpenId(m.messageId);
    if (m.status === MESSAGE_STATUS.new) markSeen.mutate(m.messageId);
  };

  return (
    <section className={styles.messages} aria-labelledby="messages-heading">
      <h2 id="messages-heading" className={styles.groupTitle}>
        Messages
      </h2>
      <ul className={styles.list}>
        {data.map((m) => (
          <li key={m.messageId}>
            <button
              type="button"
              className={`${styles.item} ${m.status === MESSAGE_STATUS.new ? styles.unread : ''}`}
              data-testid={`message-${m.messageId}`}
              onClick={() => openMessage(m)}
              aria-haspopup="dialog"
            >
              <span className={styles.thumb} aria-hidden="true">
                <MailIcon size={22} />
              </span>
              <span className={styles.text}>
                <span className={styles.itemTitle}>{m.title}</span>
                <span className={styles.excerpt}>{excerpt(m.question ?? m.message)}</span>
                <span className={styles.meta}>
                  {formatShortDate(m.date, '')}
                  {m.status === MESSAGE_STATUS.answered && ' · Answered'}
                </span>
              </span>
              {m.status === MESSAGE_STATUS.new && (
                <span className={styles.dot}>
                  <span className="visually-hidden">Unread</span>
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {shown && <MessageModal message={shown} onClose={() => setOpenId(null)} />}
    </section>
  );
}

function MessageModal({ message, onClose }: { message: SurveyMessage; onClose: () => void }) {
  const reply = useReplyToMessage();
  const [text, setText] = useState('');
  const answered = message.status === MESSAGE_STATUS.answered;
  const canSend = Boolean(message.question) && !answered && text.trim().length > 0 && !reply.isPending;

  const send = () => {
    if (!canSend) return;
    reply.mutate(
      { messageId: message.messageId, reply: text.trim() },
      {
        onSuccess: () => {
          toast.dark(MESSAGES.replySent);
          onClose();
        },
        onError: (error) => toast.danger(toastText(error, MESSAGES.operation)),
      },
    );
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={message.title}
      footer={
        message.question && !answered ? (
          <button type="button" className="btn btn-primary btn-block" onClick={send} disabled={!canSend}>
            {reply.isPending ? 'Sending…' : 'Send'}
          </button>
        ) : undefined
      }
    >
      <article className={styles.detail}>
        <RichText html={message.message} />
        {message.question && (
          <form
            className={styles.replyForm}
            onSubmit={(e) => {
              e.preventDefault();
              send();
            }}
          >
            <label className="field">
              <span className="field-label">{message.question}</span>
              {answered ? (
                <p className={styles.answer} data-testid="message-answer">
                  {message.reply}
                </p>
              ) : (
                <textarea
                  className={`input ${styles.replyInput}`}
                  value={text}
                  maxLength={MAX_REPLY_LENGTH}
                  rows={4}
                  placeholder="Write your answer"
                  onChange={(e) => setText(e.target.value)}
                />
              )}
            </label>
          </form>
        )}
        <p className={styles.detailDate}>{formatShortDate(message.date, '')}</p>
      </article>
    </Modal>
  );
}
