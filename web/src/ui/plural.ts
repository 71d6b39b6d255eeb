// "1 film", "12 films": a count with its noun, by the language's plural rules (the client's
// words are English; Intl knows where other languages put the break).
const rules = new Intl.PluralRules('en');

export const counted = (count: number, one: string, other: string) =>
  `${count.toLocaleString('en')} ${rules.select(count) === 'one' ? one : other}`;
