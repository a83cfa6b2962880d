import type { DashboardDay, DashboardHour, DashboardOverview, SfuLoad } from '@serendip/proto';
import type { ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

const AXIS = { stroke: 'var(--text-muted)', fontSize: 12 };
const GRID = 'var(--border)';
const TOOLTIP = {
  contentStyle: { background: 'var(--surface-raised)', border: '1px solid var(--border)', borderRadius: 8 },
  labelStyle: { color: 'var(--text)' },
  itemStyle: { color: 'var(--text)' },
};

/**
 * A dot on each hour that has a median: a line through one point draws nothing, and a quiet day may have one hour of
 * pairings or calls.
 */
const dotIn = (color: string) => ({ r: 3, fill: color, stroke: color });

const hourLabel = (iso: string) => `${iso.slice(11, 13)}:00`;
const dayLabel = (day: string) => day.slice(5).replace('-', '/');
const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 100) / 10);
const minutes = (ms: number | null) => (ms === null ? null : Math.round(ms / 6_000) / 10);

/** The overview's charts (recharts, in this lazy chunk only): 24 hours by hour, 14 days by day (UTC), SFU load. */
export default function OverviewCharts({ overview }: { overview: DashboardOverview }) {
  const { hours, days } = overview.charts;
  const hourly = hours.map((h: DashboardHour) => ({
    label: hourLabel(h.hour),
    matches: h.matches,
    wait: seconds(h.medianWaitMs),
    length: minutes(h.medianCallMs),
  }));
  const daily = days.map((d: DashboardDay) => {
    const calls = d.p2p + d.relayed;
    return {
      label: dayLabel(d.day),
      reports: d.reports,
      bans: d.bans,
      p2p: calls ? Math.round((d.p2p / calls) * 100) : 0,
      relayed: calls ? Math.round((d.relayed / calls) * 100) : 0,
      calls,
    };
  });
  const anyMatch = hours.some((h) => h.matches > 0);
  const anyWait = hours.some((h) => h.medianWaitMs !== null);
  const anyLength = hours.some((h) => h.medianCallMs !== null);
  const anyModeration = days.some((d) => d.reports + d.bans > 0);
  const anyCall = daily.some((d) => d.calls > 0);

  return (
    <div className="overview__charts">
      <Chart title="Matches per hour" note="Last 24 hours, UTC" empty={!anyMatch && 'No matches in the last 24 hours.'}>
        <BarChart data={hourly}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" {...AXIS} interval="preserveStartEnd" />
          <YAxis {...AXIS} allowDecimals={false} width={32} />
          <Tooltip {...TOOLTIP} />
          <Bar dataKey="matches" name="Matches" fill="var(--accent)" radius={[4, 4, 0, 0]} />
        </BarChart>
      </Chart>
      <Chart
        title="Median wait to match"
        note="Seconds, by the hour of the pairing"
        empty={!anyWait && 'No pairings in the last 24 hours.'}
      >
        <LineChart data={hourly}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" {...AXIS} interval="preserveStartEnd" />
          <YAxis {...AXIS} width={40} />
          <Tooltip {...TOOLTIP} />
          <Line
            dataKey="wait"
            name="Median wait (s)"
            stroke="var(--pending)"
            strokeWidth={2}
            connectNulls
            dot={dotIn('var(--pending)')}
          />
        </LineChart>
      </Chart>
      <Chart
        title="Median call length"
        note="Minutes, by the hour the call ended"
        empty={!anyLength && 'No call ended in the last 24 hours.'}
      >
        <LineChart data={hourly}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" {...AXIS} interval="preserveStartEnd" />
          <YAxis {...AXIS} width={40} />
          <Tooltip {...TOOLTIP} />
          <Line
            dataKey="length"
            name="Median length (min)"
            stroke="var(--ok)"
            strokeWidth={2}
            connectNulls
            dot={dotIn('var(--ok)')}
          />
        </LineChart>
      </Chart>
      <Chart
        title="Reports and bans per day"
        note="Last 14 days, UTC"
        empty={!anyModeration && 'No reports or bans in the last 14 days.'}
      >
        <BarChart data={daily}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" {...AXIS} />
          <YAxis {...AXIS} allowDecimals={false} width={32} />
          <Tooltip {...TOOLTIP} />
          <Legend />
          <Bar dataKey="reports" name="Reports" fill="var(--pending)" radius={[4, 4, 0, 0]} />
          <Bar dataKey="bans" name="Bans" fill="var(--danger)" radius={[4, 4, 0, 0]} />
        </BarChart>
      </Chart>
      <Chart
        title="Peer to peer vs relayed"
        note="Share of the day's calls, %"
        empty={!anyCall && 'No calls in the last 14 days.'}
      >
        <BarChart data={daily}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" {...AXIS} />
          <YAxis {...AXIS} domain={[0, 100]} width={36} unit="%" />
          <Tooltip {...TOOLTIP} />
          <Legend />
          <Bar dataKey="p2p" name="Peer to peer" stackId="share" fill="var(--accent)" />
          <Bar dataKey="relayed" name="Relayed (SFU)" stackId="share" fill="var(--pending)" />
        </BarChart>
      </Chart>
      <SfuNodes nodes={overview.sfu} />
    </div>
  );
}

function Chart({
  title,
  note,
  empty,
  children,
}: {
  title: string;
  note: string;
  empty: string | false;
  children: ReactNode;
}) {
  return (
    <figure className="dash-card overview__chart">
      <figcaption>
        <h2>{title}</h2>
        <span className="overview__chart-note">{note}</span>
      </figcaption>
      {empty ? (
        <p className="overview__empty">{empty}</p>
      ) : (
        <div className="overview__plot">
          <ResponsiveContainer width="100%" height="100%">
            {children as never}
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}

/** Each SFU node's load, as GET /api/admin/media reports it: its workers summed, and the busiest worker's CPU. */
function SfuNodes({ nodes }: { nodes: SfuLoad[] }) {
  const rows = nodes.map((node) => ({
    nodeId: node.nodeId,
    workers: node.workers.length,
    rooms: node.workers.reduce((sum, w) => sum + w.rooms, 0),
    transports: node.workers.reduce((sum, w) => sum + w.transports, 0),
    consumers: node.workers.reduce((sum, w) => sum + w.consumers, 0),
    cpu: Math.round(Math.max(0, ...node.workers.map((w) => w.cpu)) * 100),
    disabledReason: node.disabledReason,
  }));
  return (
    <figure className="dash-card overview__chart overview__chart--wide">
      <figcaption>
        <h2>SFU load per node</h2>
        <span className="overview__chart-note">Relayed calls run here</span>
      </figcaption>
      {rows.length === 0 ? (
        <p className="overview__empty">No SFU node has reported lately.</p>
      ) : (
        <>
          <div className="overview__plot overview__plot--short">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={rows} layout="vertical">
                <CartesianGrid stroke={GRID} horizontal={false} />
                <XAxis type="number" {...AXIS} allowDecimals={false} />
                <YAxis
                  type="category"
                  dataKey="nodeId"
                  {...AXIS}
                  width={90}
                  tickFormatter={(id: string) => id.slice(0, 8)}
                />
                <Tooltip {...TOOLTIP} />
                <Legend />
                <Bar dataKey="rooms" name="Rooms" fill="var(--accent)" />
                <Bar dataKey="consumers" name="Consumers" fill="var(--pending)" />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <div className="dash-table-wrap">
            <table className="dash-table">
              <thead>
                <tr>
                  <th scope="col">Node</th>
                  <th scope="col">Workers</th>
                  <th scope="col">Rooms</th>
                  <th scope="col">Transports</th>
                  <th scope="col">Consumers</th>
                  <th scope="col">Busiest CPU</th>
                  <th scope="col">Relay</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.nodeId}>
                    <td title={row.nodeId}>{row.nodeId.slice(0, 8)}</td>
                    <td>{row.workers}</td>
                    <td>{row.rooms}</td>
                    <td>{row.transports}</td>
                    <td>{row.consumers}</td>
                    <td>{row.cpu}%</td>
                    <td>{row.disabledReason ? `Off: ${row.disabledReason}` : 'On'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </figure>
  );
}
