import { Outlet } from 'react-router';

/** Layout of the customers section (spec: Customers layout). */
export default function CustomersLayout() {
  return (
    <div className="otto-stack otto-stack--lg">
      <Outlet />
    </div>
  );
}
