/** Types the upload accepts (spec section 5): PDF and Excel 97-2003. */
export const ACCEPTED_TYPES = ['application/pdf', 'application/vnd.ms-excel'] as const;
export const ACCEPTED_EXTENSIONS = ['.pdf', '.xls'] as const;
/** `accept` attribute of the file picker. */
export const UPLOAD_ACCEPT = [...ACCEPTED_TYPES, ...ACCEPTED_EXTENSIONS].join(',');

export interface PickedFile {
  name: string;
  type: string;
}

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

/**
 * Whether the picked file looks like a PDF or an XLS. Browsers often leave
 * `type` empty, so the extension counts too; the server checks the content.
 */
export function isAcceptedFile(file: PickedFile): boolean {
  if ((ACCEPTED_TYPES as readonly string[]).includes(file.type)) return true;
  const untyped = file.type === '' || file.type === 'application/octet-stream';
  return untyped && (ACCEPTED_EXTENSIONS as readonly string[]).includes(extension(file.name));
}

/** The client check before an upload: a name, and a file of an accepted type. */
export function canUpload(name: string, file: PickedFile | null): boolean {
  return name.trim().length > 0 && file !== null && isAcceptedFile(file);
}

/** The name field is pre-filled with the file's name when it is empty. */
export function prefillName(current: string, file: PickedFile | null): string {
  if (current.trim() || !file) return current;
  return file.name;
}
