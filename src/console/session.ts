// The API key lives in sessionStorage: it is gone when the browser tab closes, and never leaves
// this origin except as the Authorization header of our own API.
const KEY = 'timegate.apiKey';

export const storedKey = (): string | null => sessionStorage.getItem(KEY);
export const rememberKey = (key: string): void => sessionStorage.setItem(KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(KEY);

export type Scope = 'read' | 'write' | 'admin' | 'doors:unlock' | 'doors:manage';

/** The service's own rule: `admin` grants everything, `write` and `doors:manage` include `read`. */
export function allows(scopes: readonly string[], needed: Scope): boolean {
  if (scopes.includes('admin') || scopes.includes(needed)) return true;
  return needed === 'read' && (scopes.includes('write') || scopes.includes('doors:manage'));
}
