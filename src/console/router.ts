// Hash routes (`#/devices/7`): the console is one page served at /console, so every view has an
// address that survives a reload and works with the browser's back button.
import { useEffect, useState } from 'preact/hooks';

export function useRoute(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const changed = () => setRoute((shown) => (shown.join('/') === read().join('/') ? shown : read()));
    addEventListener('hashchange', changed);
    // The address may have changed between the first render and this effect (which runs after
    // paint): that change's event came before the listener, so the address is read once more.
    changed();
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export const href = (...parts: Array<string | number>) => `#/${parts.join('/')}`;
