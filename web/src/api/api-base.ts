/** BASE_URL of the server, injected into index.html as <meta name="reelstat-base-url">. */
export const apiBase: string = (document.querySelector<HTMLMetaElement>('meta[name="reelstat-base-url"]')?.content ?? '').replace(
  /\/$/,
  '',
);
