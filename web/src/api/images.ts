import { apiUrl } from './client';

/** Image proxies (SPEC.md §7). Images are loaded by <img>, which cannot send a header: the server serves them. */
export const itemImage = (id: string, width = 240, height = 360, kind: 'Primary' | 'Backdrop' = 'Primary') =>
  apiUrl(`/proxy/Items/Images/${kind}`, { id, fillWidth: width, fillHeight: height, quality: 60 });
export const userImage = (id: string) => apiUrl('/proxy/Users/Images/Primary', { id, fillWidth: 64, fillHeight: 64, quality: 60 });
