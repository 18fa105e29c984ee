import { PageFrame } from '@/components/page/PageFrame';
import { ExternalIcon } from '@/components/icons';
import { selectLoggedIn, useSession } from '@/lib/session/store';
import { useCtaUrl } from '@/lib/cta';
import styles from './PrivacyPage.module.css';

export default function PrivacyPage() {
  const loggedIn = useSession(selectLoggedIn);
  const privacyUrl = useCtaUrl('privacy_policy');

  return (
    <PageFrame title="Privacy Policy" back={loggedIn ? '/menu' : '/login'}>
      <article className={styles.policy}>
        <p className={styles.updated}>Last updated January 2021</p>

        <p>
          This Privacy Policy explains how your personal data are collected and used when you use the Companion app, in
          its mobile and web versions (the &quot;App&quot;). The App is reserved to the staff and sales force of the
          company and to the healthcare professionals to whom an account has been given. Please read this policy
          carefully; it applies together with the Terms and Conditions of the App.
        </p>

        <h2>1. Data controller</h2>
        <p>
          The data controller is the company that publishes the App (the &quot;Company&quot;). For any question about
          this policy or about your personal data you can write to our Data Protection Officer at{' '}
          <a href="mailto:privacy@example.com">privacy@example.com</a>.
        </p>

        <h2>2. Personal data we process</h2>
        <ul>
          <li>
            <strong>Account data:</strong> first name, last name, business e-mail address, role, team and the market
            certifications needed to show you the right content.
          </li>
          <li>
            <strong>Sign-in data:</strong> a securely hashed password or, for corporate single sign-on, the identifier
            returned by your organisation; the session token kept on your device.
          </li>
          <li>
            <strong>Device data:</strong> operating system, browser, app version and a device identifier, and, if you
            allow notifications, the push identifier of your device.
          </li>
          <li>
            <strong>Usage data:</strong> the documents you store, move or share, the notifications you read, your
            registrations to courses and events and, in aggregated form, which screens and contents are used.
          </li>
          <li>
            <strong>Course registration data:</strong> name, e-mail, hospital, category (surgeon or staff) and your
            newsletter choice, when you register to a course.
          </li>
        </ul>

        <h2>3. Purposes and legal bases</h2>
        <ul>
          <li>
            To provide the App, manage your account and show you the content meant for you: performance of the contract
            or of your working relationship with the Company.
          </li>
          <li>
            To keep the App secure, prevent misuse and keep a history of document operations for audit purposes:
            legitimate interest of the Company and legal obligations on quality and traceability.
          </li>
          <li>To send you notifications about new content and updates: your consent, which you can withdraw.</li>
          <li>To manage your registrations to courses and events: performance of your request.</li>
          <li>To send you information about products, services and events, only if you ask for it: your consent.</li>
        </ul>

        <h2>4. Who receives your data</h2>
        <p>
          Your data are handled by authorised staff of the Company and by service providers that host and operate the
          App on our behalf, bound by a data processing agreement. When you share a document, the recipient sees your
          name and e-mail address. Data are not sold to anyone. Where providers are located outside the European
          Economic Area, transfers are protected by the standard contractual clauses of the European Commission or by
          another lawful safeguard.
        </p>

        <h2>5. Retention</h2>
        <p>
          Account data are kept while your account is active and deleted within twelve months after it is closed, unless
          a longer period is required by law. Documents you store in My Docs are deleted when your account is closed.
          The history of document operations is kept for up to ten years to meet our quality and audit obligations.
          Course registration data are kept for the time needed to organise the course and to meet the transparency
          obligations that apply to it. Aggregated usage statistics do not identify you and may be kept longer.
        </p>

        <h2>6. Cookies and local storage</h2>
        <p>
          The web version of the App uses only technical storage on your device: your session token, your profile data
          and your app preferences are kept in the browser&apos;s local storage so that you stay signed in. No
          advertising or third-party profiling cookies are used. Aggregated, anonymous statistics about the use of the
          App are collected to improve it. You can clear this storage at any time from your browser settings; you will
          then need to sign in again.
        </p>

        <h2>7. Your rights</h2>
        <p>
          You have the right to access your personal data, to have them corrected or erased, to restrict or object to
          their processing, and to receive them in a portable format. Where processing is based on your consent, you can
          withdraw it at any time without affecting earlier processing. To exercise your rights write to{' '}
          <a href="mailto:privacy@example.com">privacy@example.com</a>. You also have the right to lodge a complaint
          with the data protection authority of your country.
        </p>

        <h2>8. Security</h2>
        <p>
          Data are sent over encrypted connections, passwords are stored only in hashed form, access is limited to
          authorised people and sessions expire automatically. No system is completely secure: please keep your
          credentials secret and tell us at once if you suspect misuse of your account.
        </p>

        <h2>9. Changes to this policy</h2>
        <p>
          We may update this policy from time to time. The date at the top shows the latest version. Material changes
          will be announced in the App.
        </p>

        <a
          className={`btn btn-outline btn-block ${styles.full}`}
          href={privacyUrl}
          target="_blank"
          rel="noopener noreferrer"
        >
          Read the full Privacy Policy <ExternalIcon size={18} />
        </a>
      </article>
    </PageFrame>
  );
}
