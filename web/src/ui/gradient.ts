// The placeholder and backdrop of an item: a mesh of its poster's four corner colours
// (meshGradientColors: top-left, top-right, bottom-left, bottom-right), as CSS gradients.
export const meshGradient = ([tl, tr, bl, br]: readonly string[]) =>
  [
    `radial-gradient(at 0% 0%, ${tl} 0, transparent 70%)`,
    `radial-gradient(at 100% 0%, ${tr} 0, transparent 70%)`,
    `radial-gradient(at 0% 100%, ${bl} 0, transparent 70%)`,
    `radial-gradient(at 100% 100%, ${br} 0, transparent 70%)`,
    `linear-gradient(${tl}, ${br})`,
  ].join(', ');

/** The artwork URL at a width (the service snaps it to 160, 320, 480, 780 or 1280). */
export const atWidth = (url: string, width: number) => `${url}${url.includes('?') ? '&' : '?'}w=${width}`;

export const posterSrcSet = (url: string) => [160, 320, 480].map((w) => `${atWidth(url, w)} ${w}w`).join(', ');
