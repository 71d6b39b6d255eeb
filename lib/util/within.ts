/**
 * What `promise` settles to, or `fallback` when it takes longer than `ms`. The timer goes as
 * soon as either happens: a plain race with a timeout keeps it (and what it holds) until it
 * fires, which for a long wait outlives the request that asked.
 */
export const within = <T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};
