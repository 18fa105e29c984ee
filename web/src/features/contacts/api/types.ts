export interface ContactSection {
  tab: string;
  voices: { id: number; title: string; subtitle: string }[];
}

/** Only the fields the entry has are present. */
export interface Subsidiary {
  id: number;
  title: string;
  address?: string;
  phone?: string;
  fax?: string;
  email?: string;
}
