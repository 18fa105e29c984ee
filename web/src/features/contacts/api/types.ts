import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type ContactSection = Schemas['ContactSection'];
/** Only the fields the entry has are present. */
export type Subsidiary = Schemas['Subsidiary'];
