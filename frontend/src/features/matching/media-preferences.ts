/** spec 3: isMicOn and isCameraOn are kept in the browser; both on by default (spec 9). */
export interface MediaToggles {
  mic: boolean;
  camera: boolean;
}

export function loadToggles(storage: Pick<Storage, 'getItem'> = localStorage): MediaToggles {
  const read = (key: string) => {
    try {
      return storage.getItem(key) !== 'false';
    } catch {
      return true;
    }
  };
  return { mic: read('isMicOn'), camera: read('isCameraOn') };
}

export function saveToggle(kind: keyof MediaToggles, on: boolean, storage: Pick<Storage, 'setItem'> = localStorage) {
  try {
    storage.setItem(kind === 'mic' ? 'isMicOn' : 'isCameraOn', String(on));
  } catch {
    // not remembered, still applied
  }
}
