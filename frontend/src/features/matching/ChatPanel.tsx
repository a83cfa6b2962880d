import { CHAT_MESSAGE_MAX_LENGTH } from '@serendip/proto';
import { SendHorizontal, X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { MATCHING_TEXTS } from './matching-messages';
import { selectMatching } from './matching.selectors';
import { matchingActions as a } from './matching.slice';

/** A chat line's time as the user's clock shows it, HH:MM. */
const clock = (at: number) => {
  const time = new Date(at);
  return `${String(time.getHours()).padStart(2, '0')}:${String(time.getMinutes()).padStart(2, '0')}`;
};

/**
 * spec 2 "Chat panel": titled after the partner; Enter sends, Shift+Enter makes a new line. Each line shows its time;
 * the partner's typing shows under the lines; after the call the chat stays (with the partner-left line) until the
 * next match.
 */
export function ChatPanel() {
  const { chat, partner, partnerTyping, status, ...state } = useAppSelector(selectMatching);
  const chatWith = partner?.firstName ?? state.chatWith;
  const dispatch = useAppDispatch();
  const [text, setText] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const canSend = status === 'connected' && text.trim().length > 0;

  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  }, [chat.length, partnerTyping]);

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
        <h2 className="match-chat__title">Message {chatWith ?? ''}</h2>
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
              {line.sender !== 'system' && (
                <span className="visually-hidden">{line.sender === 'me' ? 'You: ' : `${chatWith}: `}</span>
              )}
              {line.text}
              <time className="match-chat__time" dateTime={new Date(line.at).toISOString()}>
                {clock(line.at)}
              </time>
            </li>
          ))}
        </ol>
      )}
      {/* Not a live region: announcing every pause in someone's typing would drown out the messages. */}
      <p className="match-chat__typing">{partnerTyping && chatWith ? MATCHING_TEXTS.typing(chatWith) : ''}</p>
      <form className="match-chat__form" onSubmit={send}>
        <textarea
          className="match-chat__input"
          aria-label={`Message ${chatWith ?? ''}`}
          placeholder={MATCHING_TEXTS.chatPlaceholder}
          rows={1}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim()) dispatch(a.chatTyped());
          }}
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
