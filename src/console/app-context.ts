import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { allows, type Scope } from './session';

export interface AppSession {
  keyId: number | null;
  keyName: string;
  scopes: string[];
  workspace: string | null;
}

export const SessionContext = createContext<AppSession>({ keyId: null, keyName: '', scopes: [], workspace: null });

/** Whether the signed-in key may do this: buttons it may not use are not offered. */
export function useAllowed(scope: Scope): boolean {
  return allows(useContext(SessionContext).scopes, scope);
}
