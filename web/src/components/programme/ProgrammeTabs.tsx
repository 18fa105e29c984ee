import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { RichText } from '../RichText';
import { Tabs } from '../tabs/Tabs';
import { ActivitiesPanel } from './ActivitiesPanel';
import { ContactsPanel } from './ContactsPanel';
import { DayByDayPanel } from './DayByDayPanel';
import { DetailsPanel } from './DetailsPanel';
import { DocumentList } from './DocumentList';
import { HotelPanel } from './HotelPanel';
import { InfoPanel, type InfoPanelProps } from './InfoPanel';
import { KeyMessagesPanel } from './KeyMessagesPanel';
import { MediaPanel } from './MediaPanel';
import { activeTab, orderTabs } from './tab-order';
import type { ActivityEvent, ActivityGroup, DocumentFile, InfoContent, KeyMessage, TabsMap } from './types';

export interface ProgrammeTabsProps {
  tabs: TabsMap;
  /** The order of the tabs in the response (`tab_order`). */
  order?: string[] | null;
  name: string;
  subtitle?: string;
  /** The buttons of an activity (congress: 'Read more'; training: 'Open in Maps'). */
  activityActions: (event: ActivityEvent) => ReactNode;
  website?: InfoPanelProps['website'];
}

function Panel({ tabKey, content, props }: { tabKey: string; content: unknown; props: ProgrammeTabsProps }) {
  const c = (content ?? {}) as Record<string, unknown>;
  switch (tabKey) {
    case 'info':
      return (
        <InfoPanel
          content={c as unknown as InfoContent}
          name={props.name}
          subtitle={props.subtitle}
          website={props.website}
        />
      );
    case 'details':
      return <DetailsPanel content={c} />;
    case 'hotel':
      return <HotelPanel content={c} />;
    case 'day':
      return <DayByDayPanel content={c} />;
    case 'activities':
      return <ActivitiesPanel groups={c.activities as ActivityGroup[] | undefined} actions={props.activityActions} />;
    case 'messages':
    case 'key':
      return <KeyMessagesPanel messages={c.messages as KeyMessage[] | undefined} />;
    case 'media':
      return <MediaPanel content={c} />;
    case 'downloads':
    case 'download':
      return <DocumentList files={c.files as DocumentFile[] | undefined} />;
    case 'contacts':
      return <ContactsPanel content={c} />;
    default:
      return <RichText html={typeof c.description === 'string' ? c.description : ''} />;
  }
}

/** The tabs of a congress or a training, in the response's order; the open tab is kept in `?tab=`. */
export function ProgrammeTabs(props: ProgrammeTabsProps) {
  const [search, setSearch] = useSearchParams();
  const ordered = orderTabs(props.tabs, props.order);
  const active = activeTab(ordered, search.get('tab'));
  const choose = (key: string) => {
    const next = new URLSearchParams(search);
    next.set('tab', key);
    setSearch(next, { replace: true });
    window.scrollTo({ top: 0 });
  };
  return (
    <Tabs
      tabs={ordered.map((t) => ({ key: t.key, label: t.title }))}
      active={active}
      onChange={choose}
      label="Sections"
    >
      {active && <Panel key={active} tabKey={active} content={props.tabs[active]?.content} props={props} />}
    </Tabs>
  );
}
