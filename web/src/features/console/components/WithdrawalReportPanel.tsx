import { useState } from 'react';
import { DownloadIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { saveBlob } from '@/lib/files';
import { fetchWithdrawalReportCsv, useWithdrawalReport } from '../api/library';
import { refusalMessage } from '../logic/errors';
import { formatWhen, howLabel } from '../logic/status';
import styles from './Console.module.css';
import { Refusal } from './shared';

/** Who held a withdrawn or expired document, how, and whether each device confirmed its purge. */
export function WithdrawalReportPanel({ id }: { id: number }) {
  const report = useWithdrawalReport(id, true);
  const [csvRefusal, setCsvRefusal] = useState<string | null>(null);

  const downloadCsv = async () => {
    setCsvRefusal(null);
    try {
      const file = await fetchWithdrawalReportCsv(id);
      saveBlob(file.blob, file.fileName ?? `withdrawal-report-${id}.csv`);
    } catch (error) {
      setCsvRefusal(refusalMessage(error, 'The CSV could not be downloaded'));
    }
  };

  return (
    <section className={styles.card} aria-label="Withdrawal report">
      <div className={styles.toolbar}>
        <h2 className={styles.cardTitle}>Withdrawal report</h2>
        <button type="button" className="btn btn-outline" onClick={() => void downloadCsv()}>
          <DownloadIcon size={18} /> CSV
        </button>
      </div>
      <Refusal message={csvRefusal} />
      {report.isPending ? (
        <Loader />
      ) : report.error ? (
        <Refusal message={refusalMessage(report.error, 'The report could not be loaded')} />
      ) : report.data.holders.length === 0 ? (
        <p className={styles.muted}>Nobody held this document.</p>
      ) : (
        <table className={styles.table} aria-label="Holders">
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">How</th>
              <th scope="col">Device</th>
              <th scope="col">Purged</th>
            </tr>
          </thead>
          <tbody>
            {report.data.holders.map((holder) => {
              const devices = holder.devices.length > 0 ? holder.devices : [null];
              return devices.map((device, index) => (
                <tr key={`${String(holder.user.id)}-${device?.device ?? 'none'}`} data-testid="console-holder">
                  {index === 0 && (
                    <>
                      <td rowSpan={devices.length}>
                        <strong>{holder.user.name}</strong>
                        <div className={styles.muted}>{holder.user.email}</div>
                      </td>
                      <td rowSpan={devices.length}>{holder.how.map(howLabel).join(', ')}</td>
                    </>
                  )}
                  <td>
                    {device ? (
                      <>
                        {device.name || device.device}
                        {/* Two devices of one kind share a name: the id's start tells them apart. */}
                        {device.name && <span className={styles.muted}> · {device.device.slice(0, 8)}</span>}
                      </>
                    ) : (
                      <span className={styles.muted}>No device</span>
                    )}
                  </td>
                  <td>
                    {!device ? (
                      '—'
                    ) : device.purged_at !== null ? (
                      formatWhen(device.purged_at)
                    ) : (
                      <span className={styles.notConfirmed}>Not confirmed</span>
                    )}
                  </td>
                </tr>
              ));
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
