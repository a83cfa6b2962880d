import { describe, expect, it } from 'vitest';
import { violationsIn } from './profanity.js';

describe('the profanity filter', () => {
  it.each([
    ['you are a fucking idiot', ['Profanity']],
    ['fuuuuck this', ['Profanity']],
    ['what a sh1t show', ['Profanity']],
    ['you are a f u c k i n g idiot', ['Profanity']],
    ['f.u.c.k off', ['Profanity']],
    ['b!tch', ['Profanity']],
    ['n1gger', ['Hate Speech']],
    ['nice c0ck', ['Inappropriate Language']],
    ['f\u200bu\u200bc\u200bk you', ['Profanity']],
    ['f\u00adu\u00adc\u00adk you', ['Profanity']],
    ['f\u0301uck you', ['Profanity']],
    ['f/u/c/k you', ['Profanity']],
    ['f,u,c,k you', ['Profanity']],
    ['motherf u c k e r', ['Profanity']],
    ['ｆｕｃｋ', ['Profanity']],
  ])('catches %j', (text, categories) => {
    expect(violationsIn(text)).toEqual(categories);
  });

  it.each([
    'Hello from Scunthorpe!',
    'The assassin class is fun',
    'I passed my class exam',
    'a b c d e',
    'Good game, well played',
    'Shiitake mushrooms',
    'I am a b c person',
    'Café crème, s.v.p.',
    'U.S.A. vs U.K.',
    'Naïve résumé',
  ])('lets %j through', (text) => {
    expect(violationsIn(text)).toEqual([]);
  });
});
