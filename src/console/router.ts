// Hash routes (`#/devices/7`): the console is one page served at /console, so every view has an
// address that survives a reload and works with the browser's back button.
import { useEffect, useState } from 'preact/hooks';

export function useRoute(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const changed = () => setRoute(read());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export const href = (...parts: Array<string | number>) => `#/${parts.join('/')}`;
