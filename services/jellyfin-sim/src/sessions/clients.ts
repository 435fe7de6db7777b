/** The client applications the simulator impersonates, as they identify themselves to the server. */
export interface ClientProfile {
  key: string;
  client: string;
  deviceNames: string[];
  deviceType?: string;
  appVersion: string;
  playableMediaTypes: string[];
  supportsMediaControl: boolean;
  supportsRemoteControl: boolean;
  /** Typical transcode container when this client needs one. */
  transcodeContainer: string;
  flavors: ('jellyfin' | 'emby')[];
}

const ALL_COMMANDS = [
  'MoveUp', 'MoveDown', 'MoveLeft', 'MoveRight', 'PageUp', 'PageDown', 'PreviousLetter', 'NextLetter', 'ToggleOsd', 'ToggleContextMenu',
  'Select', 'Back', 'SendKey', 'SendString', 'GoHome', 'GoToSettings', 'VolumeUp', 'VolumeDown', 'Mute', 'Unmute', 'ToggleMute',
  'SetVolume', 'SetAudioStreamIndex', 'SetSubtitleStreamIndex', 'DisplayContent', 'GoToSearch', 'DisplayMessage', 'SetRepeatMode',
  'SetShuffleQueue', 'ChannelUp', 'ChannelDown', 'PlayMediaSource', 'PlayTrailers',
];
export const SUPPORTED_COMMANDS = ALL_COMMANDS;

export const CLIENTS: ClientProfile[] = [
  { key: 'jellyfin-web', client: 'Jellyfin Web', deviceNames: ['Firefox', 'Chrome', 'Edge', 'Safari'], appVersion: '10.11.11', playableMediaTypes: ['Audio', 'Video'], supportsMediaControl: true, supportsRemoteControl: true, transcodeContainer: 'ts', flavors: ['jellyfin'] },
  { key: 'jellyfin-android', client: 'Jellyfin Android', deviceNames: ['Pixel 8', 'Galaxy S24', 'OnePlus 12'], appVersion: '2.6.3', playableMediaTypes: ['Audio', 'Video'], supportsMediaControl: true, supportsRemoteControl: true, transcodeContainer: 'ts', flavors: ['jellyfin'] },
  { key: 'jellyfin-ios', client: 'Jellyfin Mobile (iOS)', deviceNames: ['iPhone', 'iPad'], appVersion: '1.6.1', playableMediaTypes: ['Audio', 'Video'], supportsMediaControl: true, supportsRemoteControl: true, transcodeContainer: 'mp4', flavors: ['jellyfin'] },
  { key: 'swiftfin', client: 'Swiftfin iOS', deviceNames: ['iPhone 15', 'iPad Pro', 'Apple TV'], appVersion: '1.3.0', playableMediaTypes: ['Video'], supportsMediaControl: true, supportsRemoteControl: false, transcodeContainer: 'mp4', flavors: ['jellyfin'] },
  { key: 'android-tv', client: 'Android TV', deviceNames: ['SHIELD Android TV', 'Chromecast HD', 'BRAVIA 4K'], appVersion: '0.18.4', playableMediaTypes: ['Audio', 'Video'], supportsMediaControl: true, supportsRemoteControl: true, transcodeContainer: 'ts', flavors: ['jellyfin'] },
  { key: 'kodi', client: 'Kodi', deviceNames: ['LibreELEC', 'osmc', 'living-room-pc'], appVersion: '1.0.6', playableMediaTypes: ['Audio', 'Video'], supportsMediaControl: false, supportsRemoteControl: false, transcodeContainer: 'ts', flavors: ['jellyfin', 'emby'] },
  { key: 'infuse', client: 'Infuse-Direct', deviceNames: ['Apple TV 4K', 'iPhone'], appVersion: '8.0.9', playableMediaTypes: ['Video'], supportsMediaControl: false, supportsRemoteControl: false, transcodeContainer: 'mp4', flavors: ['jellyfin', 'emby'] },
  { key: 'jellyfin-media-player', client: 'Jellyfin Media Player', deviceNames: ['DESKTOP-7H2K', 'macbook'], appVersion: '1.11.1', playableMediaTypes: ['Audio', 'Video'], supportsMediaControl: true, supportsRemoteControl: true, transcodeContainer: 'ts', flavors: ['jellyfin'] },
  { key: 'finamp', client: 'Finamp', deviceNames: ['Pixel 7'], appVersion: '0.9.11', playableMediaTypes: ['Audio'], supportsMediaControl: true, supportsRemoteControl: false, transcodeContainer: 'aac', flavors: ['jellyfin'] },
  { key: 'emby-web', client: 'Emby Web', deviceNames: ['Chrome', 'Firefox'], appVersion: '4.8.11.0', playableMediaTypes: ['Audio', 'Video'], supportsMediaControl: true, supportsRemoteControl: true, transcodeContainer: 'ts', flavors: ['emby'] },
  { key: 'emby-android', client: 'Emby for Android', deviceNames: ['Pixel 8', 'Galaxy Tab'], appVersion: '3.4.20', playableMediaTypes: ['Audio', 'Video'], supportsMediaControl: true, supportsRemoteControl: true, transcodeContainer: 'ts', flavors: ['emby'] },
  { key: 'emby-ios', client: 'Emby for iOS', deviceNames: ['iPhone', 'iPad'], appVersion: '2.2.17', playableMediaTypes: ['Audio', 'Video'], supportsMediaControl: true, supportsRemoteControl: true, transcodeContainer: 'mp4', flavors: ['emby'] },
  { key: 'emby-theater', client: 'Emby Theater', deviceNames: ['HTPC', 'Xbox'], appVersion: '4.8.11.0', playableMediaTypes: ['Audio', 'Video'], supportsMediaControl: true, supportsRemoteControl: true, transcodeContainer: 'ts', flavors: ['emby', 'jellyfin'] },
];

export function clientByKey(key: string): ClientProfile | undefined {
  const k = key.toLowerCase();
  return CLIENTS.find((c) => c.key === k || c.client.toLowerCase() === k);
}
