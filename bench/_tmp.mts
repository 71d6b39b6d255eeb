import { execFileSync } from 'node:child_process';
import { makeMkv, makeMp4 } from '../test/support/videos';
import mediaInfoFactory from 'mediainfo.js';
import { readFileSync } from 'node:fs';
const p = '/work/scratch/t.mkv';
makeMkv(p);
// add a second subtitle track with flags, and a mov_text mp4
execFileSync('ffmpeg', ['-loglevel','error','-y','-i',p,'-i',p,'-map','0','-map','1:s','-c','copy','-metadata:s:s:1','language=fre','-metadata:s:s:1','title=Commentary','-disposition:s:1','forced','-disposition:s:0','default','/work/scratch/t2.mkv']);
makeMp4('/work/scratch/t.mp4');
execFileSync('ffmpeg', ['-loglevel','error','-y','-i','/work/scratch/t.mp4','-i',p,'-map','0','-map','1:s','-c','copy','-c:s','mov_text','-metadata:s:s:0','language=spa','/work/scratch/t2.mp4']);
const mi = await (mediaInfoFactory as any)({ format: 'JSON', full: true });
for (const f of ['/work/scratch/t2.mkv', '/work/scratch/t2.mp4']) {
  const b = readFileSync(f);
  const r = JSON.parse(await mi.analyzeData(() => b.length, (size: number, offset: number) => b.subarray(offset, offset + size)));
  console.log(f, JSON.stringify(r.media.track.filter((t: any) => t['@type'] === 'Text').map((t: any) => ({ StreamOrder: t.StreamOrder, ID: t.ID, Format: t.Format, Language: t.Language, Default: t.Default, Forced: t.Forced, Title: t.Title, CodecID: t.CodecID })), null, 0));
}
mi.close();
