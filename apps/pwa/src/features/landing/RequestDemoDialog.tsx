import { useState, type FormEvent } from 'react';
import { SALES_EMAIL } from '../../lib/config';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/PasswordField';

const TEAM_SIZES = ['1-10 field staff', '11-50 field staff', '51-200 field staff', 'More than 200 field staff'];

/** Request Demo: collects a few details and opens the visitor's mail app addressed to sales. */
export function RequestDemoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [organization, setOrganization] = useState('');
  const [teamSize, setTeamSize] = useState(TEAM_SIZES[1]!);

  function submit(e: FormEvent) {
    e.preventDefault();
    const subject = `Survey Bird demo request${organization ? ` from ${organization}` : ''}`;
    const body = [
      'Hello Survey Bird team,',
      '',
      'I would like a demo of Survey Bird.',
      '',
      `Name: ${name}`,
      `Organization: ${organization}`,
      `Team size: ${teamSize}`,
    ].join('\n');
    window.location.href = `mailto:${SALES_EMAIL}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
    onClose();
  }

  return (
    <Modal open={open} title="Request a demo" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <p className="modal__body">Tell us a little about your field team and we will set up a 30-minute walkthrough with your own survey.</p>
        <TextField label="Your name" name="name" autoComplete="name" value={name} onChange={setName} />
        <TextField label="Organization" name="organization" autoComplete="organization" value={organization} onChange={setOrganization} />
        <div className="field">
          <label htmlFor="demo-team-size">Team size</label>
          <select id="demo-team-size" value={teamSize} onChange={(e) => setTeamSize(e.target.value)}>
            {TEAM_SIZES.map((s) => <option key={s}>{s}</option>)}
          </select>
        </div>
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn--primary">Send request</button>
        </div>
        <p className="form__hint">This opens your e-mail app, addressed to {SALES_EMAIL}.</p>
      </form>
    </Modal>
  );
}
