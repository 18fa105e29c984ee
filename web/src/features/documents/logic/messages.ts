/**
 * Texts of the documents area, word for word from the spec (2.16 and section 8).
 * Where the spec only says "a message ending 'Retry later'" the wording is ours.
 */
export const MESSAGES = {
  documentsError: 'An error occurred while retrieving the documents. Retry later',
  folderError: 'An error occurred while retrieving the folder. Retry later',
  fileError: 'An error occurred while obtaining the file',
  uploadCheck: 'Check the name and the file',
  folderNameRequired: 'Enter a name for the folder',
  renameNameRequired: 'Enter a new name',
  recipientsError: 'An error occurred while retrieving the recipients. Write the email or try again later',
  recipientNotFound:
    'The user associated with that e-mail was not found. Check again the e-mail or try an external share.',
  shared: (recipient: string) => `The document has been successfully shared with ${recipient}`,
  savedToMyDocs: "Document saved in 'My Docs'!",
  cannotOpen: 'Cannot open document',
  cannotShare: 'Cannot share document',
  generic: 'Cannot perform operation',
  historyError: 'An error occurred while retrieving the history. Retry later',
  maxDepth: 'You cannot create further folders, you have reached max depth level',
  // Confirmations (dark toasts) of the actions the spec leaves silent: the wording is ours.
  uploaded: (name: string) => `'${name}' has been uploaded`,
  folderCreated: (name: string) => `The folder '${name}' has been created`,
  renamed: (name: string) => `Renamed to '${name}'`,
  moved: (name: string, destination: string) => `'${name}' has been moved to ${destination}`,
  folderDeleted: (name: string) => `The folder '${name}' has been deleted`,
  removedFromMyDocs: (name: string) => `'${name}' has been removed from My Docs`,
  linkExpires: (until: string) => `The link works until ${until}.`,
} as const;

/** When an external share's link stops working, as the rep reads it (local time). */
export function linkExpiry(expiresAt: number, locale?: string): string {
  return new Intl.DateTimeFormat(locale ?? 'en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(expiresAt));
}

/** The share-404 toast stays longer (spec section 9). */
export const RECIPIENT_NOT_FOUND_DURATION = 6000;
