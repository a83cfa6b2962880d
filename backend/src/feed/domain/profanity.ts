import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';

/**
 * The profanity filter (spec 2 "Comment Removed": 'Hate Speech, Profanity and Inappropriate Language.'). obscenity
 * catches obfuscated spellings (leetspeak, repeated and look-alike letters) and knows words that merely contain one
 * ("Scunthorpe", "assassin"); accents, invisible characters and a word spelled out letter by letter ("f u c k") are
 * caught by also checking the text as a reader sees it, with single letters joined.
 */
const dataset = englishDataset.build();
const matcher = new RegExpMatcher({
  ...dataset,
  // Words the collapsed repeated letters would otherwise read as a violation.
  whitelistedTerms: [...(dataset.whitelistedTerms ?? []), 'shiitake'],
  ...englishRecommendedTransformers,
});

/** Words of the dataset that attack who someone is, and those about sex: the other matches are plain profanity. */
const HATE = new Set(['nigger', 'fag', 'retard', 'kike', 'chink', 'spic', 'tranny', 'dyke', 'gook', 'coon']);
const SEXUAL = new Set([
  'cock',
  'dick',
  'pussy',
  'cunt',
  'cum',
  'porn',
  'penis',
  'vagina',
  'tits',
  'boob',
  'blowjob',
  'dildo',
  'orgasm',
  'semen',
  'slut',
  'whore',
  'rape',
  'jizz',
  'clit',
]);
export const VIOLATION_CATEGORIES = ['Hate Speech', 'Profanity', 'Inappropriate Language'] as const;

/**
 * The letters as a reader sees them: compatibility forms folded (full-width, ligatures), accents and other combining
 * marks dropped ("f\u0301uck"), and invisible characters (zero-width spaces, soft hyphens, joiners) removed.
 */
const asRead = (text: string) => text.normalize('NFKD').replace(/[\p{M}\p{Cf}]/gu, '');

/**
 * Runs of single letters split by spaces, punctuation or symbols ("f u c k", "f/u/c/k", "f,u,c,k") joined into one
 * word, also a run that ends a word ("motherf u c k e r").
 */
const joinSpelledOut = (text: string) =>
  text.replace(/(?:\p{L}[\s\p{P}\p{S}]+){2,}\p{L}(?!\p{L})/gu, (run) => run.replace(/[\s\p{P}\p{S}]+/gu, ''));

/** The violation categories a text falls under, in VIOLATION_CATEGORIES order; none for a clean text. */
export function violationsIn(text: string): string[] {
  const found = new Set<string>();
  const read = asRead(text);
  for (const candidate of new Set([text, read, joinSpelledOut(read)])) {
    for (const match of matcher.getAllMatches(candidate)) {
      const word = englishDataset.getPayloadWithPhraseMetadata(match).phraseMetadata?.originalWord ?? '';
      found.add(HATE.has(word) ? 'Hate Speech' : SEXUAL.has(word) ? 'Inappropriate Language' : 'Profanity');
    }
  }
  return VIOLATION_CATEGORIES.filter((c) => found.has(c));
}
