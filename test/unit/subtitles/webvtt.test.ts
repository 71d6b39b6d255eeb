import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convertToWebVtt, parseAss, parseSrt, parseVtt, toWebVtt, type Cue } from '../../../lib/subtitles/webvtt';

const TIMING = /^\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}$/;

// Every block after the header is a timing line and its text, and "-->" appears nowhere else.
function assertWellFormed(vtt: string): void {
  assert.ok(vtt.startsWith('WEBVTT\n\n'), 'starts with the WEBVTT header');
  const blocks = vtt.slice('WEBVTT\n\n'.length).split('\n\n');
  assert.equal(blocks.pop(), '', 'ends with a blank line');
  for (const block of blocks) {
    const [timing, ...text] = block.split('\n');
    assert.match(timing!, TIMING);
    assert.ok(text.length > 0, `cue at ${timing} has text`);
    for (const line of text) {
      assert.ok(!line.includes('-->') && line.trim() !== '', `cue line ${JSON.stringify(line)}`);
    }
  }
}

// As a ripper writes it: CRLF, a BOM the decoder left in, italics, a font colour, a broken timing
// line, overlapping cues, a cue without its number, dots in the times and one-digit hours.
const SRT = [
  '\uFEFF1',
  '00:00:01,000 --> 00:00:03,500',
  '<i>Previously on the show...</i>',
  '',
  '2',
  '00:00:04,000 --> 00:00:06,000',
  '<font color="#ffff00">Where were you?</font>',
  'I waited all night.',
  '',
  '3',
  '00:00:07,000 -> 00:00:08,000',
  'This cue has a broken timing line.',
  '',
  '',
  '4',
  '00:00:09,000 --> 00:00:12,000',
  '- Tom & Jerry <3',
  '- Run!',
  '',
  '5',
  '00:00:10,500 --> 00:00:11,500',
  '<b>(overlapping sign)</b>',
  '',
  '00:00:13.000 --> 00:00:15.250',
  'No number, dots in the times.',
  '',
  '7',
  '0:00:16,000 --> 0:00:17,000 X1:100 X2:200 Y1:10 Y2:50',
  '{\\an8}One-digit hours, <U>underlined</U>.',
  '',
  '8',
  '00:00:20,000 --> 00:00:19,000',
  'Ends before it starts.',
  '',
].join('\r\n');

const SRT_CUES: Cue[] = [
  { startMs: 1000, endMs: 3500, text: '<i>Previously on the show...</i>' },
  { startMs: 4000, endMs: 6000, text: 'Where were you?\nI waited all night.' },
  { startMs: 9000, endMs: 12000, text: '- Tom & Jerry <3\n- Run!' },
  { startMs: 10500, endMs: 11500, text: '<b>(overlapping sign)</b>' },
  { startMs: 13000, endMs: 15250, text: 'No number, dots in the times.' },
  { startMs: 16000, endMs: 17000, text: 'One-digit hours, <u>underlined</u>.' },
];

// Styles with a Format line of their own, events in a non-default field order, text with commas,
// a Comment line, a drawing, overrides WebVTT cannot show, and events out of time order.
const ASS = [
  '[Script Info]',
  'Title: Sample',
  'ScriptType: v4.00+',
  '',
  '[V4+ Styles]',
  'Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic',
  'Style: Default,Arial,20,&H00FFFFFF,0,0',
  '',
  '[Events]',
  'Format: Layer, Style, Start, End, Name, MarginL, MarginR, MarginV, Effect, Text',
  'Dialogue: 0,Default,0:00:05.00,0:00:07.50,,0,0,0,,Later, in the kitchen\\Nshe said: "wait, no."',
  "Comment: 0,Default,0:00:01.00,0:00:02.00,,0,0,0,,Translator's note, not shown",
  'Dialogue: 0,Default,0:00:01.00,0:00:03.00,Anna,0,0,0,,{\\i1}Hello{\\i0}, {\\b1}world{\\b0}!',
  'Dialogue: 0,Sign,0:00:02.00,0:00:04.00,,0,0,0,,{\\an8\\pos(320,50)\\c&H00FFFF&}CLOSED{\\fs20}\\hTODAY',
  'Dialogue: 1,Sign,0:00:02.00,0:00:04.00,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100 0 100{\\p0}',
  'Dialogue: 0,Default,0:00:08.00,0:00:09.25,,0,0,0,,{\\i1}both {\\b1}styles{\\i0} end{\\b0}\\n<3',
  '',
].join('\n');

const ASS_CUES: Cue[] = [
  { startMs: 1000, endMs: 3000, text: '<i>Hello</i>, <b>world</b>!' },
  { startMs: 2000, endMs: 4000, text: 'CLOSED TODAY' },
  { startMs: 5000, endMs: 7500, text: 'Later, in the kitchen\nshe said: "wait, no."' },
  // WebVTT ignores an end tag that is not the innermost, so bold is closed and opened again.
  { startMs: 8000, endMs: 9250, text: '<i>both <b>styles</b></i><b> end</b>\n<3' },
];

// A hand-written file: header metadata, NOTE and STYLE blocks, a cue id, cue settings, voice and
// class spans, entities.
const VTT = [
  'WEBVTT - English captions',
  'Kind: captions',
  'Language: en',
  '',
  'NOTE written by hand,',
  'over two lines',
  '',
  'STYLE',
  '::cue { color: yellow }',
  '',
  'intro',
  '00:00:01.000 --> 00:00:03.000 align:start position:10%',
  '<v Anna>Hi <i.loud>there</i> &amp; welcome</v>',
  '',
  '01:02.500 --> 01:04.000',
  'Two lines,',
  '&lt;3 from <c.yellow>us</c>',
  '',
  '02:00:00.000 --> 02:00:01.000',
  '<00:00:00.500>Late cue',
  '',
].join('\n');

const VTT_CUES: Cue[] = [
  { startMs: 1000, endMs: 3000, text: 'Hi <i>there</i> & welcome' },
  { startMs: 62500, endMs: 64000, text: 'Two lines,\n<3 from us' },
  { startMs: 7_200_000, endMs: 7_201_000, text: 'Late cue' },
];

describe('parseSrt', () => {
  it('reads a ripped file, skipping the malformed cue and keeping overlaps', () => {
    assert.deepEqual(parseSrt(SRT), SRT_CUES);
  });

  it('copes with CR line endings, wrong numbers, extra blank lines and a missing blank line', () => {
    const srt =
      '\r\r1\r00:00:01,000 --> 00:00:02,000\rFirst\r1\r00:00:03,000 --> 00:00:04,000\rSecond\r\r\r\r1\r00:00:05,000 --> 00:00:06,000\r1984\r';
    assert.deepEqual(parseSrt(srt), [
      { startMs: 1000, endMs: 2000, text: 'First' },
      { startMs: 3000, endMs: 4000, text: 'Second' },
      { startMs: 5000, endMs: 6000, text: '1984' },
    ]);
  });

  it('gives no cues for text that is not SRT', () => {
    assert.deepEqual(parseSrt(''), []);
    assert.deepEqual(parseSrt('just some notes\nabout a film\n'), []);
  });
});

describe('parseAss', () => {
  it('reads events by their Format line, converting styling and sorting by start', () => {
    assert.deepEqual(parseAss(ASS), ASS_CUES);
  });

  it('falls back to the standard field order when there is no Format line (SSA)', () => {
    const ssa = '[Events]\r\nDialogue: Marked=0,0:00:01.50,0:00:02.05,Default,,0000,0000,0000,,Hi, you\r\n';
    assert.deepEqual(parseAss(ssa), [{ startMs: 1500, endMs: 2050, text: 'Hi, you' }]);
  });

  it('ignores Dialogue lines outside [Events] and events with broken times', () => {
    const ass = '[Other]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,No\n[Events]\nDialogue: 0,soon,0:00:02.00,Default,,0,0,0,,No\n';
    assert.deepEqual(parseAss(ass), []);
  });
});

describe('parseVtt', () => {
  it('reads cues past the header, notes and styles, keeping only <i>, <b> and <u>', () => {
    assert.deepEqual(parseVtt(VTT), VTT_CUES);
  });

  it('reads back what toWebVtt writes', () => {
    for (const cues of [SRT_CUES, ASS_CUES, VTT_CUES]) assert.deepEqual(parseVtt(toWebVtt(cues)), cues);
  });
});

describe('toWebVtt', () => {
  it('writes the header, then each cue with its timing line', () => {
    assert.equal(
      toWebVtt(SRT_CUES.slice(0, 3)),
      'WEBVTT\n\n' +
        '00:00:01.000 --> 00:00:03.500\n<i>Previously on the show...</i>\n\n' +
        '00:00:04.000 --> 00:00:06.000\nWhere were you?\nI waited all night.\n\n' +
        '00:00:09.000 --> 00:00:12.000\n- Tom &amp; Jerry &lt;3\n- Run!\n\n',
    );
    assert.equal(toWebVtt([]), 'WEBVTT\n\n');
  });

  it('escapes &, < and > outside the kept tags, and breaks "-->" and blank lines', () => {
    const cue: Cue = { startMs: 0, endMs: 1000, text: 'Fish & chips <script> a > b --> c\n\n  \n<i>fine</i> <I>not a tag</I>' };
    assert.equal(
      toWebVtt([cue]),
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nFish &amp; chips &lt;script&gt; a &gt; b -&gt; c\n<i>fine</i> &lt;I&gt;not a tag&lt;/I&gt;\n\n',
    );
  });

  it('shifts cues forward by a positive offset', () => {
    const cues: Cue[] = [{ startMs: 1000, endMs: 2000, text: 'a' }];
    assert.equal(toWebVtt(cues, 61_500), 'WEBVTT\n\n00:01:02.500 --> 00:01:03.500\na\n\n');
  });

  it('shifts cues back, dropping those that end before 0 and starting the rest at 0 at the earliest', () => {
    const cues: Cue[] = [
      { startMs: 0, endMs: 1000, text: 'gone' },
      { startMs: 200, endMs: 1500, text: 'ends at 0, gone too' },
      { startMs: 500, endMs: 3000, text: 'cut' },
      { startMs: 5000, endMs: 6000, text: 'moved' },
    ];
    assert.equal(toWebVtt(cues, -1500), 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\ncut\n\n00:00:03.500 --> 00:00:04.500\nmoved\n\n');
  });

  it('writes hours past 99 with as many digits as they need', () => {
    const hundredHours = 100 * 3_600_000;
    assert.equal(
      toWebVtt([{ startMs: hundredHours, endMs: hundredHours + 1001, text: 'long' }]),
      'WEBVTT\n\n100:00:00.000 --> 100:00:01.001\nlong\n\n',
    );
  });
});

describe('convertToWebVtt', () => {
  const samples = [
    ['srt', SRT, SRT_CUES],
    ['ass', ASS, ASS_CUES],
    ['ssa', ASS, ASS_CUES],
    ['vtt', VTT, VTT_CUES],
  ] as const;

  for (const [format, text, cues] of samples) {
    it(`converts ${format} to well-formed WebVTT`, () => {
      for (const offset of [0, 2500, -1200]) {
        const vtt = convertToWebVtt(text, format, offset);
        assertWellFormed(vtt);
        assert.equal(vtt, toWebVtt(cues, offset));
      }
    });
  }
});
