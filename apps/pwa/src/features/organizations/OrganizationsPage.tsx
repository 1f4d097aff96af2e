import { CreateOrganizationBody, Msg, type Organization } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { PlusIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { DataTable, EmailText, type Column } from '../team/DataTable';
import { AccessButton, MgmtHead, RefreshButton } from '../team/Layout';
import { Pager, SearchBox } from '../team/ListControls';
import { serialNumber } from '../team/paging';
import { usePagedList } from '../team/usePagedList';

/** Spec screen 11: every organization, searchable, and the Add Organization modal. */
export function OrganizationsPage() {
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('allOrganizations', { query: { page, searchQuery }, signal }));
  const [adding, setAdding] = useState(false);
  const data = list.data;
  const page = data?.page ?? list.page;
  const columns: Column<Organization>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: 'Organization Name', className: 'wrap wrap--name', cell: (r) => r.organization_name },
    { header: 'Email Address', className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: 'Access', className: 'shrink', cell: (r) => <AccessButton name={r.organization_name} /> },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title="Organizations"
        sub="Organizations on Survey Bird. Adding one e-mails its owner a link to set up the account."
        actions={
          <>
            <RefreshButton onClick={list.refresh} busy={list.loading} />
            <button type="button" className="btn btn--primary" onClick={() => setAdding(true)}><PlusIcon size={18} /> Add Organization</button>
          </>
        }
      />
      <div className="mgmt-panel">
        <div className="toolbar">
          <SearchBox value={list.search} onChange={list.setSearch} placeholder="Search organizations" label="Search organizations" />
        </div>
        <DataTable
          label="Organizations"
          columns={columns}
          rows={data?.organizations}
          rowKey={(r) => r._id}
          loading={list.loading}
          empty={list.query ? <p>No organization found with "{list.query}" keywords</p> : <p>You have not added any organization yet...</p>}
        />
        <Pager page={page} count={data?.organizations.length ?? 0} total={data?.totalCount ?? 0} hasPreviousPage={!!data?.hasPreviousPage} hasNextPage={!!data?.hasNextPage} onPage={list.setPage} />
      </div>
      <AddOrganizationModal open={adding} onClose={() => setAdding(false)} onAdded={list.refresh} />
    </section>
  );
}

function AddOrganizationModal({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: () => void }) {
  const [organizationName, setName] = useState('');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const parsed = CreateOrganizationBody.safeParse({ organizationName, email });
    if (!parsed.success) return toast.error(parsed.error.issues[0]?.message ?? Msg.unexpectedError);
    setBusy(true);
    try {
      const reply = await api.call('createOrganization', { body: parsed.data });
      toast.success(reply.msg);
      setName('');
      setEmail('');
      onAdded();
      onClose();
    } catch {
      // toasted by the API client
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} title="Add Organization" onClose={onClose}>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        <div className="field">
          <label htmlFor="org-name">Organization name</label>
          <input id="org-name" value={organizationName} onChange={(e) => setName(e.target.value)} autoComplete="organization" />
        </div>
        <div className="field">
          <label htmlFor="org-email">Owner's e-mail</label>
          <input id="org-email" type="email" inputMode="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
        </div>
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn--primary" disabled={busy}>{busy && <Spinner label="Adding" />} Add Organization</button>
        </div>
      </form>
    </Modal>
  );
}
