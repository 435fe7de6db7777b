import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { GeolocationResult } from './types';

export function useGeolocation(ipAddress: string | null) {
  return useQuery({
    queryKey: ['geolocate', ipAddress],
    queryFn: () => api<GeolocationResult>('/utils/geolocateIp', { method: 'POST', body: { ipAddress } }),
    enabled: ipAddress !== null,
    staleTime: Infinity,
  });
}
