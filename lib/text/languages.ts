// Language tokens in subtitle file names. People write "en", "eng", "English", "Français",
// "pt_BR" or "chs" for the same thing, and players want one BCP 47 tag, so every spelling we
// accept is listed here once, under the tag it means. Matching ignores case and accents.
import { normalize } from './normalize';

/**
 * Tag -> the tokens that mean it, space separated (a token never holds a space, so this is
 * safe): ISO 639-1, ISO 639-2/B and /T, English names, native names.
 *
 * Cantonese goes to `zh-HK`, not `yue`: Cantonese subtitles are written in Hong Kong Chinese,
 * and players and streaming clients match `zh-HK`; few of them know `yue`.
 * "lat" is left out: ISO says Latin, release names often mean Latin American Spanish.
 */
const SPELLINGS: Readonly<Record<string, string>> = {
  en: 'en eng english',
  fr: 'fr fre fra french français',
  de: 'de ger deu german deutsch',
  es: 'es spa spanish castilian español castellano',
  'es-419': 'es-419 es-la latino latinoamericano',
  it: 'it ita italian italiano',
  pt: 'pt por portuguese português',
  'pt-BR': 'pt-br ptbr pob pb brazilian brasileiro',
  nl: 'nl dut nld dutch nederlands flemish vlaams',
  sv: 'sv swe swedish svenska',
  no: 'no nor norwegian norsk',
  nb: 'nb nob bokmål',
  nn: 'nn nno nynorsk',
  da: 'da dan danish dansk',
  fi: 'fi fin finnish suomi',
  pl: 'pl pol polish polski',
  cs: 'cs cze ces czech čeština',
  sk: 'sk slo slk slovak slovenčina',
  hu: 'hu hun hungarian magyar',
  ro: 'ro rum ron romanian română',
  bg: 'bg bul bulgarian български',
  el: 'el gre ell greek ελληνικά',
  ru: 'ru rus russian русский russkiy',
  uk: 'uk ukr ukrainian українська',
  sr: 'sr srp serbian српски srpski',
  hr: 'hr hrv croatian hrvatski',
  sl: 'sl slv slovenian slovene slovenščina',
  bs: 'bs bos bosnian bosanski',
  mk: 'mk mac mkd macedonian македонски',
  sq: 'sq alb sqi albanian shqip',
  tr: 'tr tur turkish türkçe',
  he: 'he iw heb hebrew עברית',
  ar: 'ar ara arabic العربية',
  fa: 'fa per fas persian farsi فارسی',
  hi: 'hi hin hindi हिन्दी',
  th: 'th tha thai ไทย',
  vi: 'vi vie vietnamese',
  id: 'id ind indonesian',
  ms: 'ms may msa malay melayu',
  ja: 'ja jpn japanese nihongo 日本語',
  ko: 'ko kor korean 한국어',
  zh: 'zh chi zho chinese mandarin 中文',
  'zh-Hans': 'zh-hans zh-cn zh-sg chs simplified 简体 简体中文',
  'zh-Hant': 'zh-hant zh-tw cht traditional 繁體 繁體中文 繁体中文',
  'zh-HK': 'zh-hk yue cantonese 粵語 廣東話',
  et: 'et est estonian eesti',
  lv: 'lv lav latvian latviešu',
  lt: 'lt lit lithuanian lietuvių',
  is: 'is ice isl icelandic íslenska',
  ga: 'ga gle irish gaeilge',
  cy: 'cy wel cym welsh cymraeg',
  ca: 'ca cat catalan català',
  eu: 'eu baq eus basque euskara',
  gl: 'gl glg galician galego',
  ta: 'ta tam tamil தமிழ்',
  te: 'te tel telugu',
  bn: 'bn ben bengali bangla বাংলা',
  ur: 'ur urd urdu اردو',
  ml: 'ml mal malayalam',
  kn: 'kn kan kannada',
  mr: 'mr mar marathi',
  pa: 'pa pan punjabi',
  ka: 'ka geo kat georgian',
  hy: 'hy arm hye armenian',
  az: 'az aze azerbaijani',
  kk: 'kk kaz kazakh',
  af: 'af afr afrikaans',
  sw: 'sw swa swahili kiswahili',
  tl: 'tl tgl tagalog',
  fil: 'fil filipino',
  la: 'la latin',
};

/** Case, accents and '_' vs '-' do not matter: the search's folding, its word breaks as '-'. */
const key = (token: string): string => normalize(token).replace(/ /g, '-');

const TAGS: ReadonlyMap<string, string> = new Map(
  Object.entries(SPELLINGS).flatMap(([tag, spellings]) => spellings.split(' ').map((spelling) => [key(spelling), tag] as const)),
);

const SCRIPTS: Readonly<Record<string, string>> = {
  latn: 'Latn',
  cyrl: 'Cyrl',
  hans: 'Hans',
  hant: 'Hant',
  arab: 'Arab',
};

// Regions we accept after a language. A closed list, not every ISO 3166 code: "en-cc" is
// English closed captions, not English as spoken on the Cocos Islands.
const REGIONS = new Set('us gb au nz ca ie in za fr be ch lu de at es mx ar co cl pe ve pt br it nl cn tw hk mo sg my ae sa eg'.split(' '));

/**
 * The BCP 47 tag a file name token means ("eng" -> "en", "pt_BR" -> "pt-BR", "chs" -> "zh-Hans"),
 * or null. A language we know followed by a known script and/or region keeps them ("sr-Latn",
 * "fr-CA"). "hi" is Hindi here; whether it means hearing impaired is the file name's business.
 */
export function languageTag(token: string): string | null {
  const k = key(token.trim());
  const known = TAGS.get(k);
  if (known) return known;
  const [base = '', ...rest] = k.split('-');
  const lang = TAGS.get(base);
  if (!lang || lang.includes('-') || rest.length === 0 || rest.length > 2) return null;
  let tag = lang;
  let i = 0;
  const script = SCRIPTS[rest[0] ?? ''];
  if (script) {
    tag += `-${script}`;
    i = 1;
  }
  const region = rest[i];
  if (region !== undefined) {
    if (!REGIONS.has(region) && !/^\d{3}$/.test(region)) return null;
    tag += `-${region.toUpperCase()}`;
    i += 1;
  }
  return i === rest.length ? tag : null;
}

// One DisplayNames per display locale: building one is far dearer than asking it.
const displayNames = new Map<string, Intl.DisplayNames | null>();

const namesFor = (locale: string): Intl.DisplayNames | null => {
  if (!displayNames.has(locale)) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' });
    } catch {
      // An invalid locale: every label falls back to its tag.
    }
    displayNames.set(locale, names);
  }
  return displayNames.get(locale) ?? null;
};

/** A language's name for people ("pt-BR" -> "Brazilian Portuguese"), or the tag itself. */
export function languageLabel(tag: string, displayLocale = 'en'): string {
  try {
    return namesFor(displayLocale)?.of(tag) ?? tag;
  } catch {
    return tag; // not a well-formed tag
  }
}
