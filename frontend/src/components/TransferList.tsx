import type { Transfer } from "../api/types";

/** The files a step uploaded or saved: the name asked for, the name it got, and its size. */
export function TransferList({ transfers }: { transfers: Transfer[] }) {
  if (transfers.length === 0) return <p className="muted">No file was uploaded or saved during this step.</p>;
  return (
    <table className="transfers">
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Offered as</th>
          <th scope="col">Saved as</th>
          <th scope="col">Bytes</th>
        </tr>
      </thead>
      <tbody>
        {transfers.map((t, k) => (
          <tr key={k}>
            <td>{t.kind}</td>
            <td><code>{t.offered}</code></td>
            <td>
              <code>{t.saved}</code>
              {t.saved !== t.offered && <span className="muted"> (renamed)</span>}
            </td>
            <td className="num">{t.bytes}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
