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
} as const;

/** The share-404 toast stays longer (spec section 9). */
export const RECIPIENT_NOT_FOUND_DURATION = 6000;
