// The per-record field format of an access-control terminal, read from the options it reported in
// its registry or `table=options` uploads. Pure; the command builders take it as a parameter.

/**
 * How an access-control terminal wants its per-record fields written, from what it reported in its
 * registry/options (`terminalDialect`). The Security PUSH protocol document lets two fields vary:
 * the `user` validity (section 12.1.1.1: `DateFmtFunOn`) and the `userauthorize` `DevID`
 * (section 12.1.1.5: position 26 of `AccSupportFunList`).
 */
export interface TerminalDialect {
  /** `user` StartTime/EndTime: `YYYYMMDD` (`DateFmtFunOn` 0 or absent) or ZK-encoded seconds (`DateFmtFunOn=1`). */
  dateFormat: 'yyyymmdd' | 'zk-seconds';
  /** `userauthorize` carries `DevID=` (only when `AccSupportFunList` has a 1 at position 26). */
  devIdInAuthorize: boolean;
}

/** What a terminal that reported neither option gets: the document's defaults (`DateFmtFunOn` 0, `AccSupportFunList` all 0). */
export const DEFAULT_TERMINAL_DIALECT: TerminalDialect = Object.freeze({ dateFormat: 'yyyymmdd', devIdInAuthorize: false });

/** Position of "the tables have a DevID field" in `AccSupportFunList` (0-based, left to right; Security PUSH document, section 7.4). */
export const ACC_SUPPORT_DEVID_POSITION = 26;

/**
 * The per-record field format an access-control terminal asked for in its registry/options (the
 * stored pairs, keys with or without `~`, any case): `DateFmtFunOn=1` → ZK-encoded validity
 * seconds, otherwise `YYYYMMDD`; a `1` at position 26 of `AccSupportFunList` → `DevID` on
 * `userauthorize`. An absent option is the document's default (0).
 */
export function terminalDialect(options: Record<string, string> | null | undefined): TerminalDialect {
  const read = (name: string): string | undefined => {
    for (const [key, value] of Object.entries(options ?? {})) if (key.replace(/^~+/, '').toLowerCase() === name) return value.trim();
    return undefined;
  };
  return {
    dateFormat: read('datefmtfunon') === '1' ? 'zk-seconds' : 'yyyymmdd',
    devIdInAuthorize: read('accsupportfunlist')?.[ACC_SUPPORT_DEVID_POSITION] === '1',
  };
}
