// Depot dashboard: in the manner of a Dash app, each input POSTs to a server "callback" and
// the page renders the answer. A react-select picks the region (its menu lives in a portal on
// document.body and its options exist only while it is open); radio items pick the metric.
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import Select from 'react-select';

const REGIONS = ['North', 'East', 'South', 'West', 'Central'].map((r) => ({ value: r, label: r }));
const METRICS = [['revenue', 'Revenue'], ['units', 'Units'], ['returns', 'Returns']];

async function callback(input, value) {
  const response = await fetch('api/callback', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ input, value }),
  });
  return response.json();
}

function Figure({ answer, empty }) {
  if (!answer) return <p className="empty">{empty}</p>;
  return (
    <figure>
      <figcaption>{answer.caption}</figcaption>
      <table>
        <thead><tr>{answer.header.map((h) => <th key={h}>{h}</th>)}</tr></thead>
        <tbody>
          {answer.rows.map(([name, figure]) => (
            <tr key={name}><td>{name}</td><td><span className="bar" style={{ width: `${figure / 4}px` }} />{figure}</td></tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function App() {
  const [region, setRegion] = useState(null);
  const [byRegion, setByRegion] = useState(null);
  const [metric, setMetric] = useState('revenue');
  const [byMetric, setByMetric] = useState(null);
  useEffect(() => {
    if (region) callback('region', region.value).then(setByRegion);
    else setByRegion(null);
  }, [region]);
  useEffect(() => { callback('metric', metric).then(setByMetric); }, [metric]);
  return (
    <div className="dashboard">
      <h1>Depot dashboard</h1>
      <div className="panels">
        <section className="panel">
          <h2>Depots by region</h2>
          <label id="region-label" htmlFor="region-input">Region</label>
          <Select inputId="region-input" aria-labelledby="region-label" options={REGIONS} value={region}
            onChange={setRegion} isClearable classNamePrefix="region" placeholder="Choose a region…"
            menuPortalTarget={document.body} styles={{ menuPortal: (base) => ({ ...base, zIndex: 10 }) }} />
          <Figure answer={byRegion} empty="No region chosen." />
        </section>
        <section className="panel">
          <h2>Quarter</h2>
          <div className="radios" role="radiogroup" aria-label="Metric">
            {METRICS.map(([value, label]) => (
              <label key={value} className="radio">
                <input type="radio" name="metric" value={value} checked={metric === value}
                  onChange={() => setMetric(value)} />
                {label}
              </label>
            ))}
          </div>
          <Figure answer={byMetric} empty="Loading…" />
        </section>
      </div>
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
