// Workspace settings on MUI (React, Emotion): Checkbox, Switch, Select, Autocomplete, Tabs,
// Accordion, Menu and Dialog. Each complete use adds a line to the status list.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputLabel from '@mui/material/InputLabel';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

const COUNTRIES = ['Denmark', 'Finland', 'Norway', 'Sweden'];

function App() {
  const [notifications, setNotifications] = useState(false);
  const [digest, setDigest] = useState(false);
  const [plan, setPlan] = useState('');
  const [country, setCountry] = useState(null);
  const [tab, setTab] = useState(0);
  const [menu, setMenu] = useState(null);
  const [confirming, setConfirming] = useState(false);
  const [archived, setArchived] = useState(false);

  const lines = [
    notifications && 'Notifications on',
    digest && 'Digest: weekly',
    plan && `Plan: ${plan} chosen`,
    country && `Ships to ${country}`,
    archived && 'Workspace archived',
  ].filter(Boolean);

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto', p: 3 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="h5" component="h1">Workspace settings</Typography>
        <Button id="more-button" aria-controls={menu ? 'more-menu' : undefined} aria-haspopup="true"
                aria-expanded={menu ? 'true' : undefined} onClick={(e) => setMenu(e.currentTarget)}>
          More
        </Button>
        <Menu id="more-menu" anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
          <MenuItem onClick={() => setMenu(null)}>Duplicate</MenuItem>
          <MenuItem onClick={() => { setMenu(null); setConfirming(true); }}>Archive</MenuItem>
        </Menu>
      </Stack>
      <Tabs value={tab} onChange={(e, value) => setTab(value)} aria-label="Sections" sx={{ mb: 2 }}>
        <Tab label="General" id="tab-general" aria-controls="panel-general" />
        <Tab label="Billing" id="tab-billing" aria-controls="panel-billing" />
      </Tabs>
      <div role="tabpanel" id="panel-general" aria-labelledby="tab-general" hidden={tab !== 0}>
        <Stack spacing={2}>
          <FormControlLabel label="Notifications"
            control={<Switch checked={notifications} onChange={(e) => setNotifications(e.target.checked)} />} />
          <FormControlLabel label="Weekly digest"
            control={<Checkbox checked={digest} onChange={(e) => setDigest(e.target.checked)} />} />
          <FormControl sx={{ width: 240 }}>
            <InputLabel id="plan-label">Plan</InputLabel>
            <Select labelId="plan-label" label="Plan" value={plan} onChange={(e) => setPlan(e.target.value)}>
              <MenuItem value="Free">Free</MenuItem>
              <MenuItem value="Pro">Pro</MenuItem>
              <MenuItem value="Team">Team</MenuItem>
            </Select>
          </FormControl>
          <Autocomplete sx={{ width: 240 }} options={COUNTRIES} value={country} autoHighlight
            onChange={(e, value) => setCountry(value)}
            renderInput={(params) => <TextField {...params} label="Country" />} />
        </Stack>
      </div>
      <div role="tabpanel" id="panel-billing" aria-labelledby="tab-billing" hidden={tab !== 1}>
        <Typography sx={{ mb: 2 }}>Invoices are sent on the first of the month.</Typography>
        <Accordion>
          <AccordionSummary aria-controls="advanced-content" id="advanced-header">Advanced</AccordionSummary>
          <AccordionDetails id="advanced-content">API key: kit-4242</AccordionDetails>
        </Accordion>
        <Accordion>
          <AccordionSummary aria-controls="tax-content" id="tax-header">Tax</AccordionSummary>
          <AccordionDetails id="tax-content">No tax number on file.</AccordionDetails>
        </Accordion>
      </div>
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="archive-title">
        <DialogTitle id="archive-title">Archive this workspace?</DialogTitle>
        <DialogContent>Nobody can post in it any more.</DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button onClick={() => { setConfirming(false); setArchived(true); }}>Confirm</Button>
        </DialogActions>
      </Dialog>
      <ul id="status" aria-live="polite" style={{ color: '#1b5e20' }}>
        {lines.map((line) => <li key={line}>{line}</li>)}
      </ul>
    </Box>
  );
}

createRoot(document.getElementById('root')).render(<App />);
