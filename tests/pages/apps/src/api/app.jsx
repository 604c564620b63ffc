// Depot API explorer: an OpenAPI-style reference in React. Operations are grouped by tag and
// expand on a click of their summary or of their path link (the same handler); an expanded
// operation lists its parameters and fetches a loopback answer on "Try it out". Every lock
// icon opens the one Authorize dialog; the Models section expands schemas, nested ones too.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

const TAGS = {
  customers: ['listCustomers', 'getCustomer', 'createCustomer', 'deleteCustomer'],
  orders: ['listOrders', 'getOrder', 'createOrder', 'cancelOrder'],
  shipments: ['listShipments', 'getShipment', 'trackShipment', 'returnShipment'],
  invoices: ['listInvoices', 'getInvoice', 'payInvoice', 'voidInvoice'],
  carriers: ['listCarriers', 'getCarrier', 'rateCarrier', 'suspendCarrier'],
  inventory: ['listItems', 'getItem', 'getStockLevel', 'adjustStock'],
};
const VERBS = { list: 'GET', get: 'GET', track: 'GET', create: 'POST', rate: 'POST', pay: 'POST',
  adjust: 'PATCH', cancel: 'POST', return: 'POST', delete: 'DELETE', void: 'DELETE', suspend: 'PUT' };

function describe(tag, id) {  // an operation's method, path, summary and parameters
  const verb = id.match(/^[a-z]+/)[0];
  const one = verb !== 'list';
  const path = `/${tag}${one ? '/{id}' : ''}${id === 'getStockLevel' ? '/stock' : ''}`;
  const words = id.replace(/([A-Z])/g, ' $1').toLowerCase();
  const params = one ? [['id', 'path', 'string', `The ${tag.replace(/s$/, '')} id`]]
    : [['limit', 'query', 'integer', 'Rows per page'], ['cursor', 'query', 'string', 'Where to continue']];
  return { id, method: VERBS[verb], path, summary: words[0].toUpperCase() + words.slice(1), params };
}

const MODELS = {
  Customer: { id: 'string', name: 'string', email: 'string' },
  Order: { id: 'string', customer: 'Customer', shipping: 'ShippingInfo', total: 'number' },
  ShippingInfo: { carrier: 'string', address: 'Address', dockDoorNumber: 'integer' },
  Address: { street: 'string', city: 'string', postcode: 'string' },
};

function Lock({ onOpen }) {  // an SVG icon with its own listener: SVG elements have no click()
  return (
    <svg className="lock" viewBox="0 0 16 16" width="18" height="18" role="img"
      aria-label="Authorization required" onClick={(e) => { e.stopPropagation(); onOpen(); }}>
      <path d="M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7zm2 0h4V5a2 2 0 0 0-4 0z" />
    </svg>
  );
}

function Operation({ op, onAuthorize }) {
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState(null);
  const toggle = (event) => {
    event.preventDefault();
    setOpen((was) => !was);
  };
  const copy = () => {  // the click goes on to the summary, which toggles, as in Swagger UI
    navigator.clipboard?.writeText(op.path).catch(() => {});
  };
  const tryIt = async () => {
    setAnswer('Loading…');
    const response = await fetch(`/api/ops/${op.id}`);
    setAnswer(JSON.stringify(await response.json(), null, 2));
  };
  return (
    <div className={`op op-${op.method.toLowerCase()}`} id={`op-${op.id}`}>
      <div className="op-summary" role="button" tabIndex={0} aria-expanded={open} onClick={toggle}>
        <span className="method">{op.method}</span>
        <a className="path" href={`#/operations/${op.id}`} onClick={(e) => { e.stopPropagation(); toggle(e); }}>{op.path}</a>
        <span className="summary">{op.summary}</span>
        <button type="button" className="copy" title="Copy path" aria-label="Copy path"
          onClick={copy}>⧉</button>
        <Lock onOpen={onAuthorize} />
      </div>
      {open && (
        <div className="op-body">
          <h4>Parameters</h4>
          <table>
            <thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead>
            <tbody>
              {op.params.map(([name, where, type, text]) => (
                <tr key={name}><td>{name}</td><td>{where}</td><td>{type}</td><td>{text}</td></tr>
              ))}
            </tbody>
          </table>
          <button type="button" className="try" onClick={tryIt}>Try it out</button>
          {answer && <pre className="answer">{answer}</pre>}
        </div>
      )}
    </div>
  );
}

function Schema({ name, depth }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="schema" style={{ marginLeft: depth * 16 }}>
      <button type="button" className="schema-name" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'} {name}
      </button>
      {open && (
        <ul className="fields">
          {Object.entries(MODELS[name]).map(([field, type]) => (
            <li key={field}>
              {type in MODELS ? <><span className="field">{field}</span><Schema name={type} depth={1} /></>
                : <><span className="field">{field}</span> <span className="type">{type}</span></>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Authorize({ onClose }) {
  return (
    <div className="backdrop">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="auth-title">
        <h3 id="auth-title">Available authorizations</h3>
        <p>api_key (apiKey, in header X-Depot-Key)</p>
        <input aria-label="api_key value" placeholder="X-Depot-Key" />
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>Close</button>
        </div>
      </div>
    </div>
  );
}

function App() {
  const [authorizing, setAuthorizing] = useState(false);
  const open = () => setAuthorizing(true);
  return (
    <div className="explorer">
      <header>
        <h1>Depot API <small>1.4.0</small></h1>
        <p>Customers, orders, shipments, invoices, carriers and stock of the depot network.</p>
      </header>
      {Object.entries(TAGS).map(([tag, ids]) => (
        <section key={tag} className="tag">
          <h2>{tag}</h2>
          {ids.map((id) => <Operation key={id} op={describe(tag, id)} onAuthorize={open} />)}
        </section>
      ))}
      <section className="models">
        <h2>Models</h2>
        {['Customer', 'Order'].map((name) => <Schema key={name} name={name} depth={0} />)}
      </section>
      {authorizing && <Authorize onClose={() => setAuthorizing(false)} />}
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
