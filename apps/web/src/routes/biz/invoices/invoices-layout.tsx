import { Outlet } from 'react-router';

/** Layout of the invoices section. */
export default function InvoicesLayout() {
  return (
    <div className="otto-stack otto-stack--lg">
      <Outlet />
    </div>
  );
}
