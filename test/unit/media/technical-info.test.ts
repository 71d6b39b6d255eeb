// The rules from MediaInfoLib's report to TechnicalInfo, on reports written by hand in the
// shape MediaInfoLib gives them (numbers as strings). The field values in the rows are the ones
// MediaInfoLib reported for files ffmpeg made, or documents for the formats ffmpeg cannot write.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toTechnicalInfo, type MediaInfoReport, type ReportTrack } from '../../../lib/media/technical-info';

const report = (...track: ReportTrack[]): MediaInfoReport => ({ media: { track } });
const general = (fields: Record<string, unknown> = {}): ReportTrack => ({
  '@type': 'General',
  Format: 'Matroska',
  Duration: '3.048',
  ...fields,
});
const video = (fields: Record<string, unknown>): ReportTrack => ({ '@type': 'Video', Width: '1920', Height: '1080', ...fields });
const audio = (fields: Record<string, unknown>): ReportTrack => ({ '@type': 'Audio', Channels: '2', ...fields });

describe('technical info from a MediaInfoLib report', () => {
  it('reads a whole report into short names, numbers and languages', () => {
    const info = toTechnicalInfo(
      report(
        general({ OverallBitRate: '242092.4' }),
        video({
          Format: 'HEVC',
          FrameRate: '23.976',
          BitDepth: '10',
          HDR_Format: 'SMPTE ST 2086',
          HDR_Format_Compatibility: 'HDR10',
          transfer_characteristics: 'PQ',
        }),
        audio({ Format: 'E-AC-3', Channels: '6', Language: 'en' }),
        audio({ Format: 'MLP FBA', Channels: '8', Language: 'und', Default: 'Yes' }),
        { '@type': 'Text', Format: 'PGS', Language: 'pt-BR', StreamOrder: '3', Default: 'Yes', Forced: 'No' },
        { '@type': 'Text', Format: 'UTF-8', Language: 'en', StreamOrder: '4', Title: 'SDH', Default: 'No', Forced: 'Yes / Yes' },
        { '@type': 'Text', Format: 'EIA-608', StreamOrder: '0-0' },
        { '@type': 'Menu' },
      ),
    );

    assert.deepEqual(info, {
      durationSeconds: 3.048,
      container: 'matroska',
      bitrate: 242092,
      video: { codec: 'hevc', width: 1920, height: 1080, frameRate: 23.976, bitDepth: 10, hdr: 'hdr10' },
      audio: [
        { codec: 'eac3', channels: 6, language: 'en', default: false },
        // The track to play unless a person picks another.
        { codec: 'truehd', channels: 8, language: null, default: true },
      ],
      subtitles: [
        { codec: 'pgs', language: 'pt-BR', streamIndex: 3, title: null, forced: false, default: true },
        { codec: 'srt', language: 'en', streamIndex: 4, title: 'SDH', forced: true, default: false },
        // Captions inside the video stream: no stream of their own to extract.
        { codec: 'eia-608', language: null, streamIndex: null, title: null, forced: false, default: false },
      ],
    });
  });

  it("an MP4's Default is its tracks' enabled flag, not a choice: only Matroska's counts", () => {
    const track = { '@type': 'Text', Format: 'Timed Text', StreamOrder: '2', Default: 'Yes / Yes' };
    const mp4 = toTechnicalInfo(report(general({ Format: 'MPEG-4' }), video({ Format: 'AVC' }), track));
    assert.equal(mp4?.subtitles[0]?.default, false);
    const mkv = toTechnicalInfo(report(general({ Format: 'WebM' }), video({ Format: 'VP9' }), track));
    assert.equal(mkv?.subtitles[0]?.default, true);
    const sound = { '@type': 'Audio', Format: 'AAC', Channels: '2', Default: 'Yes' };
    assert.equal(toTechnicalInfo(report(general({ Format: 'MPEG-4' }), video({ Format: 'AVC' }), sound))?.audio[0]?.default, false);
    assert.equal(toTechnicalInfo(report(general({ Format: 'Matroska' }), video({ Format: 'AVC' }), sound))?.audio[0]?.default, true);
  });

  const containers: Array<[fields: Record<string, unknown>, container: string]> = [
    [{ Format: 'MPEG-4', Format_Profile: 'Base Media' }, 'mp4'],
    [{ Format: 'MPEG-4', Format_Profile: 'QuickTime' }, 'mov'],
    [{ Format: 'WebM' }, 'webm'],
    [{ Format: 'AVI' }, 'avi'],
    [{ Format: 'MPEG-TS' }, 'mpeg-ts'],
    [{ Format: 'BDAV' }, 'm2ts'],
    [{ Format: 'MPEG-PS' }, 'mpeg-ps'],
    [{ Format: 'Flash Video' }, 'flv'],
    [{ Format: 'Windows Media' }, 'asf'],
    [{ Format: 'Ogg' }, 'ogg'],
    [{ Format: 'Some New Box' }, 'some-new-box'], // no row yet: its own name, kebab-case
  ];
  for (const [fields, container] of containers) {
    it(`names the container ${JSON.stringify(fields)} ${container}`, () => {
      assert.equal(toTechnicalInfo(report(general(fields), video({ Format: 'AVC' })))?.container, container);
    });
  }

  const videoCodecs: Array<[fields: Record<string, unknown>, codec: string]> = [
    [{ Format: 'AVC' }, 'h264'],
    [{ Format: 'HEVC' }, 'hevc'],
    [{ Format: 'AV1' }, 'av1'],
    [{ Format: 'VP9' }, 'vp9'],
    [{ Format: 'VP8' }, 'vp8'],
    [{ Format: 'MPEG-4 Visual' }, 'mpeg4'],
    [{ Format: 'xvid' }, 'mpeg4'], // AVI: the encoder's FourCC
    [{ Format: 'MPEG Video', Format_Version: '2' }, 'mpeg2'],
    [{ Format: 'MPEG Video', Format_Version: '1' }, 'mpeg1'],
    [{ Format: 'VC-1' }, 'vc1'],
    [{ Format: 'WMV2' }, 'wmv2'],
  ];
  for (const [fields, codec] of videoCodecs) {
    it(`names the video codec ${JSON.stringify(fields)} ${codec}`, () => {
      assert.equal(toTechnicalInfo(report(general(), video(fields)))?.video?.codec, codec);
    });
  }

  const audioCodecs: Array<[fields: Record<string, unknown>, codec: string]> = [
    [{ Format: 'AAC' }, 'aac'],
    [{ Format: 'AC-3' }, 'ac3'],
    [{ Format: 'E-AC-3' }, 'eac3'],
    [{ Format: 'MLP FBA' }, 'truehd'],
    [{ Format: 'DTS' }, 'dts'],
    [{ Format: 'FLAC' }, 'flac'],
    [{ Format: 'Opus' }, 'opus'],
    [{ Format: 'Vorbis' }, 'vorbis'],
    [{ Format: 'PCM' }, 'pcm'],
    [{ Format: 'MPEG Audio', Format_Profile: 'Layer 3' }, 'mp3'],
    [{ Format: 'MPEG Audio', Format_Profile: 'Layer 2' }, 'mp2'],
  ];
  for (const [fields, codec] of audioCodecs) {
    it(`names the audio codec ${JSON.stringify(fields)} ${codec}`, () => {
      assert.equal(toTechnicalInfo(report(general(), audio(fields)))?.audio[0]?.codec, codec);
    });
  }

  const subtitleCodecs: Array<[fields: Record<string, unknown>, codec: string | null]> = [
    [{ Format: 'UTF-8', CodecID: 'S_TEXT/UTF8' }, 'srt'],
    [{ Format: 'ASS' }, 'ass'],
    [{ Format: 'Timed Text', CodecID: 'tx3g' }, 'tx3g'],
    [{ Format: 'D_WEBVTT/SUBTITLES' }, 'webvtt'],
    [{ Format: 'VobSub' }, 'vobsub'],
    [{}, null],
  ];
  for (const [fields, codec] of subtitleCodecs) {
    it(`names the subtitle codec ${JSON.stringify(fields)} ${codec}`, () => {
      assert.equal(
        toTechnicalInfo(report(general(), video({ Format: 'AVC' }), { '@type': 'Text', ...fields }))?.subtitles[0]?.codec,
        codec,
      );
    });
  }

  const hdr: Array<[fields: Record<string, unknown>, hdr: string | null]> = [
    [{ HDR_Format: 'Dolby Vision / SMPTE ST 2086', HDR_Format_Compatibility: 'HDR10' }, 'dolby-vision'],
    [{ HDR_Format: 'SMPTE ST 2094 App 4', HDR_Format_Compatibility: 'HDR10+ Profile B' }, 'hdr10+'],
    [{ HDR_Format: 'SMPTE ST 2086', HDR_Format_Compatibility: 'HDR10' }, 'hdr10'],
    [{ transfer_characteristics: 'PQ' }, 'hdr10'], // PQ without mastering metadata
    [{ transfer_characteristics: 'HLG' }, 'hlg'],
    [{ transfer_characteristics: 'BT.709' }, null],
  ];
  for (const [fields, expected] of hdr) {
    it(`calls ${JSON.stringify(fields)} ${expected ?? 'not HDR'}`, () => {
      assert.equal(toTechnicalInfo(report(general(), video({ Format: 'HEVC', ...fields })))?.video?.hdr, expected);
    });
  }

  it('takes the longest stream when the container gives no duration (a raw stream)', () => {
    const info = toTechnicalInfo(
      report(general({ Format: 'MPEG Audio', Duration: undefined }), audio({ Format: 'MPEG Audio', Duration: '2.037' })),
    );

    assert.equal(info?.durationSeconds, 2.037);
    assert.equal(info?.video, null);
  });

  it('says unknown (null) for missing numbers instead of guessing', () => {
    const info = toTechnicalInfo(report(general({ Duration: undefined }), { '@type': 'Video', Format: 'AVC' }));

    assert.deepEqual(info, {
      durationSeconds: null,
      container: 'matroska',
      bitrate: null,
      video: { codec: 'h264', width: null, height: null, frameRate: null, bitDepth: null, hdr: null },
      audio: [],
      subtitles: [],
    });
  });

  it('finds nothing in a report without a video or audio stream', () => {
    assert.equal(toTechnicalInfo(report(general())), undefined);
    assert.equal(toTechnicalInfo(report(general({ Format: 'SubRip' }), { '@type': 'Text', Format: 'SubRip' })), undefined);
    assert.equal(toTechnicalInfo(report({ '@type': 'General' }, { '@type': 'Video' })), undefined);
    assert.equal(toTechnicalInfo({}), undefined);
  });
});
