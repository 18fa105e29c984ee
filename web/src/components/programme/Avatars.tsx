import styles from './programme.module.css';

/** Overlapping round photos (experts, speakers). */
export function Avatars({
  people,
  max = 4,
}: {
  people: { name: string; image?: string | null }[] | undefined;
  max?: number;
}) {
  if (!people || people.length === 0) return null;
  const shown = people.slice(0, max);
  const more = people.length - shown.length;
  return (
    <div className={styles.avatars} aria-label={people.map((p) => p.name).join(', ')}>
      {shown.map((person) =>
        person.image ? (
          <img key={person.name} className={styles.avatar} src={person.image} alt="" title={person.name} />
        ) : (
          <span key={person.name} className={styles.avatar} title={person.name}>
            {person.name.charAt(0)}
          </span>
        ),
      )}
      {more > 0 && <span className={`${styles.avatar} ${styles.avatarMore}`}>+{more}</span>}
    </div>
  );
}
