// Workspace settings on Headless UI (React): Switch, Checkbox, Listbox, Tabs, Disclosure,
// Menu and Dialog, styled by hand. Each complete use adds a line to the status list.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import {
  Checkbox, Dialog, DialogPanel, DialogTitle, Disclosure, DisclosureButton, DisclosurePanel,
  Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions, Menu, MenuButton, MenuItem,
  MenuItems, Switch, Tab, TabGroup, TabList, TabPanel, TabPanels,
} from '@headlessui/react';
import './style.css';

const PLANS = ['Free', 'Pro', 'Team'];

function App() {
  const [notifications, setNotifications] = useState(false);
  const [digest, setDigest] = useState(false);
  const [plan, setPlan] = useState(null);
  const [confirming, setConfirming] = useState(false);
  const [archived, setArchived] = useState(false);

  const lines = [
    notifications && 'Notifications on',
    digest && 'Digest: weekly',
    plan && `Plan: ${plan} chosen`,
    archived && 'Workspace archived',
  ].filter(Boolean);

  return (
    <main className="page">
      <div className="head">
        <h1>Workspace settings</h1>
        <Menu>
          <MenuButton className="btn">More</MenuButton>
          <MenuItems anchor="bottom end" className="menu-items">
            <MenuItem><button className="menu-item" type="button">Duplicate</button></MenuItem>
            <MenuItem>
              <button className="menu-item" type="button" onClick={() => setConfirming(true)}>Archive</button>
            </MenuItem>
          </MenuItems>
        </Menu>
      </div>
      <TabGroup>
        <TabList className="tabs">
          <Tab className="tab">General</Tab>
          <Tab className="tab">Billing</Tab>
        </TabList>
        <TabPanels>
          <TabPanel>
            <Field className="row">
              <Switch checked={notifications} onChange={setNotifications} className="switch"><span /></Switch>
              <Label>Notifications</Label>
            </Field>
            <Field className="row">
              <Checkbox checked={digest} onChange={setDigest} className="check" />
              <Label>Weekly digest</Label>
            </Field>
            <Field className="row">
              <Label>Plan</Label>
              <Listbox value={plan} onChange={setPlan}>
                <ListboxButton className="btn listbox-button">{plan || 'Choose a plan'}</ListboxButton>
                <ListboxOptions anchor="bottom start" className="options">
                  {PLANS.map((name) => (
                    <ListboxOption key={name} value={name} className="option">{name}</ListboxOption>
                  ))}
                </ListboxOptions>
              </Listbox>
            </Field>
          </TabPanel>
          <TabPanel>
            <p>Invoices are sent on the first of the month.</p>
            <Disclosure as="div" className="disclosure">
              <DisclosureButton>Advanced</DisclosureButton>
              <DisclosurePanel>API key: kit-4242</DisclosurePanel>
            </Disclosure>
            <Disclosure as="div" className="disclosure">
              <DisclosureButton>Tax</DisclosureButton>
              <DisclosurePanel>No tax number on file.</DisclosurePanel>
            </Disclosure>
          </TabPanel>
        </TabPanels>
      </TabGroup>
      <Dialog open={confirming} onClose={() => setConfirming(false)}>
        <div className="backdrop" aria-hidden="true" />
        <div className="dialog-wrap">
          <DialogPanel className="dialog">
            <DialogTitle>Archive this workspace?</DialogTitle>
            <p>Nobody can post in it any more.</p>
            <div className="row">
              <button className="btn" type="button" onClick={() => setConfirming(false)}>Cancel</button>
              <button className="btn primary" type="button"
                      onClick={() => { setConfirming(false); setArchived(true); }}>Confirm</button>
            </div>
          </DialogPanel>
        </div>
      </Dialog>
      <ul id="status" aria-live="polite">
        {lines.map((line) => <li key={line}>{line}</li>)}
      </ul>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<App />);
