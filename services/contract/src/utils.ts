import { z } from 'zod';

/** POST /utils/geolocateIp and the image proxies. */
export const geolocateBody = z.object({ ipAddress: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }) });

/** SPEC.md §3 Geolocation result (the GeoLite2 City shape, reduced to what the modal shows). */
export const geolocationAnswer = z.object({
  city: z.object({ names: z.object({ en: z.string().optional() }) }).optional(),
  country: z.object({ names: z.object({ en: z.string().optional() }), iso_code: z.string().optional() }).optional(),
  postal: z.object({ code: z.string().optional() }).optional(),
  traits: z.object({ autonomous_system_organization: z.string().optional() }).optional(),
  location: z.object({ latitude: z.number().optional(), longitude: z.number().optional() }).optional(),
});
export type GeolocationAnswer = z.infer<typeof geolocationAnswer>;

const dimension = z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1).max(2000, 'must be at most 2000');
/** Image proxy query: ids and sizes only (the proxy never forwards a path), sizes capped at 2000 px. */
export const itemImageQuery = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a media-server id'),
  fillWidth: dimension.optional(),
  fillHeight: dimension.optional(),
  maxWidth: dimension.optional(),
  maxHeight: dimension.optional(),
  quality: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100).default(90),
  tag: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be an image tag')
    .optional(),
});
export const deviceImageQuery = z.object({ devicename: z.string().max(200).default('') });
