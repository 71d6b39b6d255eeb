// The ffmpeg command of one segment, option by option where each prevents a measured fault
// (docs/playback-design.md): a remux opens on its keyframe and stops its copied video before the
// next one; a transcode seeks exactly (earlier first where the container has no index), scales
// no taller than asked, and moves the output to the segment's place on the timeline.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { segmentCommand, type SegmentJob } from '../../../lib/playback/commands';

const job = (extra: Partial<SegmentJob>): SegmentJob => ({
  input: '/films/A (2001).mkv',
  segment: { start: 12, end: 18, videoEnd: 17.9 },
  audioTrack: 1,
  video: 'copy',
  maxHeight: 1080,
  preset: 'veryfast',
  output: '/data/playback/r0-0123456789abcdef/.x.tmp.ts',
  ...extra,
});
const after = (args: string[], option: string) => args[args.indexOf(option) + 1];

describe('segment command', () => {
  it('remux: copies the video from its keyframe (-copyts -copypriorss 0) to just before the next, and converts the chosen audio track cut exactly', () => {
    const args = segmentCommand(job({}));
    const inputs = args.flatMap((a, i) => (a === '-i' ? [i] : []));
    assert.equal(inputs.length, 2, 'the video and the audio each through an input of their own');
    assert.deepEqual(args.slice(inputs[0]! - 4, inputs[0]! + 2), ['-ss', '12.000000', '-to', '17.900000', '-i', '/films/A (2001).mkv']);
    // The audio on the grid of 1024-sample frames at 48 kHz: 563 and 844 frames from the start, its input ending a frame early (the priming comes first).
    assert.deepEqual(args.slice(inputs[1]! - 4, inputs[1]! + 2), ['-ss', '12.010667', '-to', '17.984000', '-i', '/films/A (2001).mkv']);
    assert.equal(after(args, '-frames:a'), String(844 - 563), "no frame past the next segment's start");
    assert.ok(args.includes('-copyts') && after(args, '-copypriorss') === '0');
    assert.equal(after(args, '-c:v'), 'copy');
    assert.equal(args[args.indexOf('-map', args.indexOf('-map') + 1) + 1], '1:a:1');
    assert.equal(after(args, '-c:a'), 'aac');
    assert.equal(after(args, '-avoid_negative_ts'), 'disabled');
    assert.equal(after(args, '-f'), 'mpegts');
    assert.equal(args.at(-1), job({}).output);
  });

  it("remux: copies a track the client plays, cut half a frame before the picture's cuts so consecutive segments share each packet once", () => {
    const args = segmentCommand(job({ audio: 'copy', audioFrameS: 0.032 }));
    const inputs = args.flatMap((a, i) => (a === '-i' ? [i] : []));
    assert.deepEqual(args.slice(inputs[1]! - 4, inputs[1]! + 2), ['-ss', '11.984000', '-to', '17.984000', '-i', '/films/A (2001).mkv']);
    assert.equal(after(args, '-c:a'), 'copy');
    assert.ok(!args.includes('-frames:a') && !args.includes('-af'), 'nothing encoded, nothing counted');
    const last = segmentCommand(job({ audio: 'copy', audioFrameS: 0.032, segment: { start: 90, end: 93.5 } }));
    assert.ok(!last.includes('-to'), 'the last one reads to the end');
    // Where the picture starts at zero, the audio does too.
    const first = segmentCommand(job({ audio: 'copy', audioFrameS: 0.032, segment: { start: 0, end: 2, videoEnd: 1.9 } }));
    assert.equal(first[first.lastIndexOf('-i') - 3], '0.000000');
  });

  it('remux: the last segment reads to the end of the file', () => {
    const args = segmentCommand(job({ segment: { start: 90, end: 93.5 } }));
    assert.ok(!args.includes('-to'));
  });

  it("transcode: an exact seek, the segment's length, H.264 8-bit no taller than asked, the output at the segment's time", () => {
    const args = segmentCommand(job({ video: 'convert', segment: { start: 12, end: 18 }, maxHeight: 720 }));
    assert.deepEqual(args.slice(args.indexOf('-ss'), args.indexOf('-ss') + 6), [
      '-ss',
      '12.000000',
      '-i',
      '/films/A (2001).mkv',
      '-t',
      '6.000000',
    ]);
    assert.equal(after(args, '-c:v'), 'libx264');
    assert.match(after(args, '-vf')!, /min\(ih,720\)/);
    assert.match(after(args, '-vf')!, /format=yuv420p/);
    assert.equal(after(args, '-output_ts_offset'), '12.000000');
    assert.equal(after(args, '-preset'), 'veryfast');
    assert.equal(after(args, '-frames:a'), '281', 'whole 1024-sample frames at 48 kHz to within half a frame of the end (6 s: 281.25)');
  });

  it('transcode: without an index (MPEG-TS) the input seek goes earlier and an output seek decodes to the cut', () => {
    const args = segmentCommand(job({ video: 'convert', segment: { start: 12, end: 18 }, prerollS: 5 }));
    const input = args.indexOf('-i');
    assert.deepEqual(args.slice(input - 2, input + 6), [
      '-ss',
      '7.000000',
      '-i',
      '/films/A (2001).mkv',
      '-ss',
      '5.000000',
      '-t',
      '6.000000',
    ]);
    const first = segmentCommand(job({ video: 'convert', segment: { start: 0, end: 6 }, prerollS: 5 }));
    assert.equal(first.filter((a) => a === '-ss').length, 1, 'nothing to decode before the start of the file');
  });

  it('a file without sound gets no audio map', () => {
    const args = segmentCommand(job({ audioTrack: null }));
    assert.ok(args.includes('-an') && !args.some((a) => a.includes(':a:')));
  });
});
