// hls.js's light build (no subtitles or DRM: our subtitles are WebVTT <track>s) ships without
// its own declarations; it is the full build's API.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}
