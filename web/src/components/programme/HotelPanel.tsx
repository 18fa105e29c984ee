import { BusIcon, HotelIcon, MapPinIcon } from '../icons';
import { ReadMore } from '../ReadMore';
import { RichText } from '../RichText';
import { CalendarButton } from './CalendarButton';
import styles from './programme.module.css';
import { DateRange, Section } from './Section';
import type { Hotel, HotelContent, Transfer } from './types';

function HotelCard({ hotel }: { hotel: Hotel }) {
  return (
    <Section title={hotel.name} icon={<HotelIcon size={20} />}>
      {hotel.image && <img className={styles.heroImage} src={hotel.image} alt="" loading="lazy" />}
      <RichText html={hotel.address} />
      {hotel.googlemaps && (
        <a className={styles.link} href={hotel.googlemaps} target="_blank" rel="noopener noreferrer">
          <MapPinIcon size={18} /> Open in Maps
        </a>
      )}
      <DateRange from={hotel.checkin_date} to={hotel.checkout_date} fromLabel="In" toLabel="Out" />
      <ReadMore html={hotel.info} />
      <CalendarButton href={hotel.calendar} />
    </Section>
  );
}

function TransferCard({ transfer, title }: { transfer: Transfer; title: string }) {
  return (
    <Section title={title} icon={<BusIcon size={20} />}>
      <DateRange
        from={transfer.transfer_date}
        fromTime={transfer.transfer_time}
        to={transfer.transfer_return_date}
        toTime={transfer.transfer_return_time}
        fromLabel="Transfer"
        toLabel="Return"
      />
      <ReadMore html={transfer.info} />
      <CalendarButton href={transfer.calendar} />
    </Section>
  );
}

/** Hotel & Transfer tab: the hotel, the transfer, then the additional ones. */
export function HotelPanel({ content }: { content: HotelContent }) {
  const extraHotels = content.additional_hotels ?? [];
  const extraTransfers = content.additional_transfers ?? [];
  return (
    <div className={styles.stack}>
      {content.hotel && <HotelCard hotel={content.hotel} />}
      {content.transfer && <TransferCard transfer={content.transfer} title="Transfer" />}
      {extraHotels.length > 0 && <h3 className={styles.groupTitle}>Additional hotels</h3>}
      {extraHotels.map((hotel, i) => (
        <HotelCard key={`${hotel.name}-${i}`} hotel={hotel} />
      ))}
      {extraTransfers.length > 0 && <h3 className={styles.groupTitle}>Additional transfers</h3>}
      {extraTransfers.map((transfer, i) => (
        <TransferCard key={i} transfer={transfer} title={`Transfer ${i + 2}`} />
      ))}
    </div>
  );
}
