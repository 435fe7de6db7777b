import { GeolocationService, type Runtime } from '@reelstat/core';
import { geolocateBody, geolocationAnswer } from '@reelstat/contract';
import { route } from '../http/api-routes.js';

const services = new WeakMap<Runtime, GeolocationService>();
function geolocation(runtime: Runtime): GeolocationService {
  let service = services.get(runtime);
  if (!service) {
    service = new GeolocationService(runtime.config.geolocation);
    services.set(runtime, service);
  }
  return service;
}

export const utilsRoutes = [
  route({
    method: 'post',
    path: '/utils/geolocateIp',
    tag: 'utilities',
    summary: 'City, country, postcode, network and coordinates of a public IP address (GeoLite2); private addresses: 400',
    access: 'admin',
    body: geolocateBody,
    response: geolocationAnswer,
    handle: ({ body, runtime }) => geolocation(runtime).locate(body.ipAddress),
  }),
];
