// The five ways terminals upload templates (OPERLOG `FP`/`FACE`/`FVEIN`/`BIODATA`, table `BIODATA`,
// tabledata `templatev10`/`biodata`) mapped to one shape for storage.
import type { ReportedInfo } from '../services/terminals/terminal.service';
import { normaliseVersion, templateFormat, type UploadedTemplate } from '../services/sync/employee-template.service';
import type { BiodataRecord, OperlogRecord, TableRow } from '../protocol';

/** Unified template: its own type, version and format. */
export function biodataTemplate(r: BiodataRecord): UploadedTemplate {
  const version = r.majorVer === null ? null : normaliseVersion(`${r.majorVer}.${r.minorVer ?? '0'}`);
  return {
    pin: r.pin,
    type: r.type,
    no: r.no,
    subIndex: r.index,
    version,
    format: templateFormat(r.format),
    valid: r.valid !== 0,
    duress: r.duress === 1,
    data: r.template,
  };
}

/**
 * OPERLOG templates. `FP` carries no version: it is the ≤ 10 algorithm, so the version is the one
 * the terminal reports (INFO), 10.0 when it reported none. `FACE` (NIR face, FID = part of the
 * face set) takes the terminal's face algorithm; `FVEIN` has no version the terminal reports.
 */
export function operlogTemplates(records: OperlogRecord[], reported: Pick<ReportedInfo, 'fpAlgorithm' | 'faceAlgorithm'>): UploadedTemplate[] {
  const out: UploadedTemplate[] = [];
  for (const r of records) {
    if (r.kind === 'biodata') out.push(biodataTemplate(r));
    else if (r.kind === 'fingerprint')
      out.push({
        pin: r.pin,
        type: 1,
        no: r.fid,
        subIndex: 0,
        version: normaliseVersion(reported.fpAlgorithm) ?? '10.0',
        format: 0,
        valid: r.valid !== 0,
        duress: r.valid === 3,
        data: r.template,
      });
    else if (r.kind === 'face')
      out.push({
        pin: r.pin,
        type: 2,
        no: 0,
        subIndex: r.fid,
        version: normaliseVersion(reported.faceAlgorithm),
        format: 0,
        valid: r.valid !== 0,
        duress: false,
        data: r.template,
      });
    else if (r.kind === 'fingervein')
      out.push({
        pin: r.pin,
        type: 7,
        no: r.fid,
        subIndex: Number(r.fields.index ?? 0) || 0,
        version: null,
        format: 0,
        valid: r.valid !== 0,
        duress: false,
        data: r.template,
      });
  }
  return out;
}

/** Access-control tabledata: `templatev10` is the 10.0 fingerprint (finger id ≥ 16 = duress); `biodata` unified. */
export function tableDataTemplates(rows: TableRow[]): UploadedTemplate[] {
  const out: UploadedTemplate[] = [];
  for (const r of rows) {
    if (r.kind === 'biodata') out.push(biodataTemplate(r));
    else if (r.kind === 'templatev10')
      out.push({ pin: r.pin, type: 1, no: r.fingerId % 16, subIndex: 0, version: '10.0', format: 0, valid: r.valid !== 0, duress: r.duress, data: r.template });
  }
  return out;
}
