import { CHAT_MESSAGE_MAX_LENGTH } from '@serendip/proto';
import { SendHorizontal, X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { MATCHING_TEXTS } from './matching-messages';
import { selectMatching } from './matching.selectors';
import { matchingActions as a } from './matching.slice';

/** spec 2 "Chat panel": titled after the partner; Enter sends, Shift+Enter makes a new line. */
export function ChatPanel() {
  const { chat, partner, status } = useAppSelector(selectMatching);
  const dispatch = useAppDispatch();
  const [text, setText] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const canSend = status === 'connected' && text.trim().length > 0;

  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  }, [chat.length]);

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    dispatch(a.chatSent(text));
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  };

  return (
    <section className="match-chat" aria-label="Chat">
      <div className="match-chat__head">
        <h2 className="match-chat__title">Message {partner?.firstName ?? ''}</h2>
        {/* On a phone the panel is a sheet over the call: it closes from here. */}
        <Button variant="ghost" size="sm" iconOnly aria-label="Hide messages" onClick={() => dispatch(a.chatToggled())}>
          <X aria-hidden="true" />
        </Button>
      </div>
      {chat.length === 0 ? (
        <p className="match-chat__empty">{MATCHING_TEXTS.chatEmpty}</p>
      ) : (
        <ol ref={list} className="match-chat__lines" aria-live="polite">
          {chat.map((line) => (
            <li key={line.id} className={`match-chat__line match-chat__line--${line.sender}`}>
              <span className="visually-hidden">{line.sender === 'me' ? 'You: ' : `${partner?.firstName}: `}</span>
              {line.text}
            </li>
          ))}
        </ol>
      )}
      <form className="match-chat__form" onSubmit={send}>
        <textarea
          className="match-chat__input"
          aria-label={`Message ${partner?.firstName ?? ''}`}
          placeholder={MATCHING_TEXTS.chatPlaceholder}
          rows={1}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={status !== 'connected'}
        />
        <Button type="submit" iconOnly aria-label="Send" disabled={!canSend}>
          <SendHorizontal aria-hidden="true" />
        </Button>
      </form>
    </section>
  );
}
